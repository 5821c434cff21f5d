#include "harness/gate/confirmation.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace fabricgate::gate {

namespace {

// Worth a second launch: a judged failure, or a launch too unstable to judge.
bool needs_second_look(Verdict v) { return v == Verdict::regression || v == Verdict::unstable; }

// The final verdict of a key measured twice, and the line that says why. A key fails only when
// both launches were judged and both failed; an UNSTABLE launch was not judged, so it neither
// fails a key nor confirms a failure.
std::pair<Verdict, std::string> decide(Verdict first, Verdict second) {
  const std::string pair = std::string(verdict_name(first)) + " then " + verdict_name(second);
  if (first == Verdict::regression && second == Verdict::regression) {
    return {Verdict::regression, "confirmed (" + pair + " in a fresh launch)"};
  }
  if (verdict_fails_gate(second) && second != Verdict::regression) {
    return {second, "the confirmation launch failed otherwise (" + pair + ")"};
  }
  if (second == Verdict::regression || first == Verdict::regression) {
    return {Verdict::ambiguous,
            "not confirmed (" + pair + "): one judged launch failed, not two; not failed"};
  }
  if (second == Verdict::unstable) {
    return {Verdict::unstable, "unstable twice (" + pair + "): not judged, not failed"};
  }
  return {second, "the first launch was not judgeable, the confirmation was (" + pair + ")"};
}

void sort_and_settle(Comparison& c) {
  std::stable_sort(c.keys.begin(), c.keys.end(),
                   [](const KeyComparison& a, const KeyComparison& b) {
                     if (a.verdict != b.verdict) return a.verdict < b.verdict;
                     return a.key < b.key;
                   });
  if (c.failing_count() > 0 || c.failing_findings() > 0) {
    c.exit_code = ExitCode::gate_failure;
  } else if (!c.run_complete) {
    c.exit_code = ExitCode::infra_failure;
  } else {
    c.exit_code = ExitCode::pass;
  }
}

}  // namespace

bool verdict_needs_confirmation(Verdict v) { return needs_second_look(v); }

std::vector<std::string> keys_to_confirm(const Comparison& first, std::size_t max_keys) {
  std::vector<std::string> keys;
  for (const KeyComparison& k : first.keys) {  // sorted by urgency already
    if (keys.size() == max_keys) break;
    if (verdict_needs_confirmation(k.verdict)) keys.push_back(k.key);
  }
  return keys;
}

Comparison apply_confirmation(Comparison first, const Comparison* second,
                              const std::vector<std::string>& confirmed,
                              const std::string& second_source, std::size_t max_keys) {
  const std::set<std::string> asked(confirmed.begin(), confirmed.end());
  std::map<std::string, const KeyComparison*> again;
  if (second) {
    for (const KeyComparison& k : second->keys) {
      if (asked.count(k.key) && k.verdict != Verdict::missing) again.emplace(k.key, &k);
    }
  }
  std::size_t upheld = 0;
  std::size_t overturned = 0;
  std::size_t over_limit = 0;
  for (KeyComparison& k : first.keys) {
    if (!verdict_needs_confirmation(k.verdict)) continue;
    Confirmation f;
    f.first = k.verdict;
    f.first_reason = k.reason;
    if (!asked.count(k.key)) {
      f.decision = "not re-measured (more than " + std::to_string(max_keys) +
                   " keys failed): first verdict stands";
      ++over_limit;
    } else if (auto it = again.find(k.key); it == again.end()) {
      f.decision = second ? "absent from the confirmation launch: first verdict stands"
                          : "no confirmation run (" + second_source + "): first verdict stands";
      ++upheld;
    } else {
      f.second = it->second->verdict;
      f.second_reason = it->second->reason;
      auto [final_verdict, why] = decide(f.first, *f.second);
      f.decision = why;
      k.verdict = final_verdict;
      (verdict_fails_gate(final_verdict) ? upheld : overturned) += 1;
    }
    k.reason = f.decision + ". First launch: " + f.first_reason +
               (f.second ? ". Confirmation: " + std::string(verdict_name(*f.second)) + " " +
                               f.second_reason
                         : "");
    k.confirmation = std::move(f);
  }
  first.confirmation_run = second_source;
  first.confirmation_note =
      std::to_string(confirmed.size()) + " key(s) re-measured in a fresh launch (" + second_source +
      "): " + std::to_string(upheld) + " still failing, " + std::to_string(overturned) +
      " not confirmed" +
      (over_limit ? ", " + std::to_string(over_limit) + " over the limit of " +
                        std::to_string(max_keys) + " (not re-measured)"
                  : "");
  sort_and_settle(first);
  return first;
}

Comparison compare_with_confirmation(const RunRecord& run, const Baseline* baseline,
                                     const CompareOptions& options, const ConfirmOptions& confirm,
                                     const ConfirmationLauncher& launch) {
  Comparison first = compare_run(run, baseline, options);
  const std::vector<std::string> keys = keys_to_confirm(first, confirm.max_keys);
  if (keys.empty() || !baseline) return first;
  const ConfirmationLaunch again = launch(keys);
  if (!again.run)
    return apply_confirmation(std::move(first), nullptr, keys, again.source, confirm.max_keys);
  const Comparison second = compare_run(*again.run, baseline, options);
  return apply_confirmation(std::move(first), &second, keys, again.source, confirm.max_keys);
}

}  // namespace fabricgate::gate
