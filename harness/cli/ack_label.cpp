#include "harness/cli/ack_label.hpp"

#include <algorithm>
#include <iostream>

#include "core/errors.hpp"
#include "core/text_escape.hpp"
#include "harness/launch/run_assembly.hpp"
#include "harness/store/results_store.hpp"
#include "harness/verdict/verdict_table.hpp"

namespace fabricgate::cli {

namespace {

// A failing or warning verdict's name (verdict_table.hpp): only those are findings to label.
bool finding_verdict(const std::string& name) {
  for (const verdict::VerdictFacts& f : verdict::verdict_table())
    if (name == f.name) return f.fails || f.warns;
  return false;
}

bool one_line(const std::string& s, std::size_t max) {
  return !s.empty() && s.size() <= max && std::none_of(s.begin(), s.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
  });
}

// The subject the label is about, checked against what the store recorded of the run.
std::string subject_of(const LabelArgs& a, const store::StoredRun& run) {
  if (!a.key.empty()) {
    for (const store::StoredMedian& m : run.medians) {
      if (m.key != a.key) continue;
      if (!finding_verdict(m.verdict))
        throw InputError("KEY: " + a.key + " was " +
                         (m.verdict.empty() ? "not judged" : m.verdict) + " in run " + a.run_id +
                         ", not a failure: nothing to label");
      return a.key;
    }
    throw InputError("KEY: run " + a.run_id + " measured no key " + a.key);
  }
  if (!a.finding.empty()) {
    if (a.node.empty()) throw InputError("--node: the node the finding names (with --finding)");
    const auto found = run.facts.find("node_findings");
    if (found != run.facts.end() && found->is_array()) {
      for (const auto& f : *found)
        if (f.is_object() && f.value("finding", "") == a.finding && f.value("node", "") == a.node)
          return a.finding + " " + a.node;
    }
    throw InputError("--finding: run " + a.run_id + " recorded no " + a.finding + " on node " +
                     a.node);
  }
  const auto outcome = run.facts.find("outcome");
  if (outcome == run.facts.end() || !outcome->is_string() || *outcome != "FAIL")
    throw InputError("--run: run " + a.run_id +
                     " did not fail the gate (its recorded outcome is not FAIL): nothing to label; "
                     "give a KEY or --finding of it");
  return "run";
}

}  // namespace

int record_finding_label(const LabelArgs& a) {
  if (std::find_if(std::begin(store::kFindingLabels), std::end(store::kFindingLabels),
                   [&](const char* l) { return a.label == l; }) == std::end(store::kFindingLabels))
    throw InputError("--label: false-alarm, real or expected, found \"" +
                     report::printable(a.label) + "\"");
  if (!one_line(a.run_id, 256)) throw InputError("--run: the id of a recorded run (one line)");
  if (!one_line(a.platform, 128)) throw InputError("--platform: the run's platform");
  if (!one_line(a.who, 128)) throw InputError("--who: who labels it (1-128 characters, one line)");
  if (!a.note.empty() && (!(a.note.rfind("https://", 0) == 0 || a.note.rfind("http://", 0) == 0) ||
                          !one_line(a.note, 512) || a.note.find(' ') != std::string::npos))
    throw InputError("--reason: the URL of the issue (http:// or https://, no blanks)");
  if (!a.key.empty() && !a.finding.empty())
    throw InputError("KEY and --finding: label one subject at a time");
  const store::StoreLocation where = store::resolve_store_location(a.store, "results");
  if (where.kind == store::StoreKind::none)
    throw InputError("--store none keeps no labels; give sqlite:PATH or a PostgreSQL URL");
  auto s = store::open_store(where, store::Access::write);
  store::RunQuery q;
  q.platform = a.platform;
  q.run_id = a.run_id;
  const std::vector<store::StoredRun> found = s->runs(q);
  if (found.empty())
    throw InputError("--run: " + s->display() + " holds no run " + a.run_id + " of platform " +
                     a.platform);
  const std::string subject = subject_of(a, found.front());
  s->record_label(
      {a.platform, a.run_id, subject, a.label, a.who, a.note, launch::utc_now_iso8601()});
  const std::string what = subject == "run" ? "the failure" : subject;
  std::cout << report::console_text("labelled " + what + " of run " + a.run_id + " (" + a.platform +
                                    ") " + a.label + " in " + s->display() + "\n");
  return 0;
}

}  // namespace fabricgate::cli
