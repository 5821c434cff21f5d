#include "harness/store/dashboard_runs.hpp"

#include <ctime>
#include <map>
#include <set>

#include "harness/gate/outcome.hpp"
#include "harness/store/store_history.hpp"

namespace fabricgate::store {

std::string host_of(const StoredRun& run) {
  const auto hosts = run.facts.find("hosts");
  if (hosts != run.facts.end() && hosts->is_array() && !hosts->empty()) {
    std::string out;
    for (const auto& h : *hosts)
      if (h.is_string()) out += (out.empty() ? "" : "+") + h.get<std::string>();
    if (!out.empty()) return out;
  }
  if (!run.fingerprint_digest.empty()) return "fingerprint " + run.fingerprint_digest.substr(0, 12);
  return "unknown host";
}

report::DashboardRun dashboard_run(const StoredRun& run) {
  report::DashboardRun d;
  d.run = indexed_run(run);
  d.host = host_of(run);
  for (const StoredMedian& m : run.medians)
    if (!m.verdict.empty()) d.verdicts[m.key] = m.verdict;
  // A store row may be written by anyone who can write the store: only the gate's own words.
  if (const auto o = run.facts.find("outcome"); o != run.facts.end() && o->is_string()) {
    const std::string word = o->get<std::string>();
    if (gate::is_outcome_word(word)) d.outcome = word;
  }
  if (const auto n = run.facts.find("node_findings"); n != run.facts.end() && n->is_array()) {
    for (const auto& f : *n) {
      if (!f.is_object()) continue;
      const std::string node = f.value("node", std::string());
      const std::string finding = f.value("finding", std::string());
      const std::string severity = f.value("severity", std::string());
      // Only the gate's own severity words; node and finding are shown escaped (site_esc).
      if (severity != "drain" && severity != "reboot-suggested" && severity != "monitor") continue;
      d.node_findings.push_back(node + ": " + finding + " (" + severity + ")");
    }
  }
  return d;
}

namespace {

// `iso` (YYYY-MM-DDTHH:MM:SSZ) moved back `days` days, same form; "" when unreadable.
std::string days_before(const std::string& iso, std::size_t days) {
  std::tm tm{};
  if (::strptime(iso.c_str(), "%Y-%m-%dT%H:%M:%SZ", &tm) == nullptr) return "";
  const std::time_t t = ::timegm(&tm) - static_cast<std::time_t>(days) * 86400;
  std::tm out{};
  ::gmtime_r(&t, &out);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &out);
  return text;
}

}  // namespace

report::LabelPrecision label_precision(const std::vector<report::DashboardRun>& runs,
                                       const std::vector<FindingLabel>& labels,
                                       const std::string& now, std::size_t days) {
  report::LabelPrecision p;
  p.days = days;
  const std::string from = days_before(now, days);
  std::set<std::string> in_window;
  std::set<std::string> failing;
  for (const report::DashboardRun& r : runs) {
    if (from.empty() || r.run.started_at < from || r.run.started_at > now) continue;
    in_window.insert(r.run.run_id);
    if (report::run_verdict(r) == "FAIL") failing.insert(r.run.run_id);
  }
  std::set<std::string> labelled_runs;
  for (const FindingLabel& l : labels) {
    if (in_window.count(l.run_id) == 0) continue;
    labelled_runs.insert(l.run_id);
    if (l.label == "real") ++p.real;
    if (l.label == "expected") ++p.expected;
    if (l.label == "false-alarm") ++p.false_alarm;
  }
  p.failing_runs = failing.size();
  for (const std::string& id : failing)
    p.unlabelled_failing_runs += labelled_runs.count(id) ? 0 : 1;
  return p;
}

std::vector<report::DashboardPlatform> dashboard_platforms(ResultsStore& store,
                                                           const std::string& platform,
                                                           std::size_t last,
                                                           const std::string& now) {
  std::vector<std::string> names;
  if (platform.empty()) {
    names = store.platforms();
  } else {
    names.push_back(choose_platform(store, platform));
  }
  std::vector<report::DashboardPlatform> out;
  for (const std::string& p : names) {
    RunQuery q;
    q.platform = p;
    q.last = last;
    report::DashboardPlatform dp{p, {}};
    for (const StoredRun& r : store.runs(q)) dp.runs.push_back(dashboard_run(r));
    dp.stored_runs = last == 0 ? dp.runs.size() : store.run_count(p);
    dp.precision = label_precision(dp.runs, store.labels(p), now);
    if (!dp.runs.empty()) out.push_back(std::move(dp));
  }
  return out;
}

}  // namespace fabricgate::store
