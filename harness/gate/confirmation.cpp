#include "harness/gate/confirmation.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "harness/gate/outcome.hpp"
#include "harness/verdict/verdict_table.hpp"

namespace fabricgate::gate {

namespace {

// NOISY is judged too: a launch inside a NOISY key's band is a launch that did not fail it.
bool judged(verdict::Verdict v) {
  return v == verdict::Verdict::regression || v == verdict::Verdict::pass ||
         v == verdict::Verdict::improvement || v == verdict::Verdict::noisy;
}

std::string launches_text(std::size_t n) {
  return n == 1   ? "the launch"
         : n == 2 ? "both launches"
                  : "all " + std::to_string(n) + " launches";
}

// A DIP (a curve that falls as the size grows, roofline/judge.hpp) stands only when every
// launch shows it: the bidirectional copies of one H200 move 3-4 % from launch to launch, so one
// launch's 1 GiB point can sit 12 % under its 256 MiB point with nothing changed (1 of 193
// replayed A/A launches did). A dip that a later launch does not repeat is AMBIGUOUS.
std::pair<verdict::Verdict, std::string> decide_dip(
    const std::string& sequence, const std::vector<verdict::ConfirmationResult>& later) {
  std::size_t repeated = 0, judged_later = 0;
  for (const verdict::ConfirmationResult& r : later) {
    if (r.verdict == verdict::Verdict::unstable) continue;
    ++judged_later;
    repeated += r.verdict == verdict::Verdict::dip ? 1 : 0;
  }
  if (judged_later > 0 && repeated == judged_later && later.back().verdict == verdict::Verdict::dip)
    return {verdict::Verdict::dip,
            "confirmed: the dip in " + launches_text(judged_later + 1) + " (" + sequence + ")"};
  if (judged_later == 0)
    return {verdict::Verdict::dip,
            "no later launch could judge it (" + sequence + "): first verdict stands"};
  return {verdict::Verdict::ambiguous, "not confirmed (" + sequence +
                                           "): the dip is not in every launch; "
                                           "not failed"};
}

// The final verdict of a key from its first launch and its later launches, with the line that
// says why. REGRESSION needs at least two judged launches, every judged one beyond the band and
// the last launch judged (it is the one taken after the gap); an UNSTABLE launch was not judged,
// so it neither fails a key nor confirms a failure. A DIP is decided by decide_dip.
std::pair<verdict::Verdict, std::string> decide(
    verdict::Verdict first, const std::vector<verdict::ConfirmationResult>& later) {
  std::string sequence = verdict::verdict_name(first);
  for (const verdict::ConfirmationResult& r : later)
    sequence += std::string(" then ") + verdict::verdict_name(r.verdict);
  if (first == verdict::Verdict::dip) return decide_dip(sequence, later);
  for (const verdict::ConfirmationResult& r : later) {
    if (verdict::facts_of(r.verdict).fails && r.verdict != verdict::Verdict::regression)
      return {r.verdict, "a confirmation launch failed otherwise (" + sequence + ")"};
  }
  std::size_t judged_n = judged(first) ? 1 : 0;
  std::size_t failed = first == verdict::Verdict::regression ? 1 : 0;
  for (const verdict::ConfirmationResult& r : later) {
    judged_n += judged(r.verdict) ? 1 : 0;
    failed += r.verdict == verdict::Verdict::regression ? 1 : 0;
  }
  const bool last_failed = !later.empty() && later.back().verdict == verdict::Verdict::regression;
  if (failed >= 2 && failed == judged_n && last_failed) {
    return {verdict::Verdict::regression,
            "confirmed: beyond the band in " + launches_text(judged_n) + " (" + sequence + ")"};
  }
  if (failed > 0) {
    return {verdict::Verdict::ambiguous,
            "not confirmed (" + sequence + "): " + std::to_string(failed) + " of " +
                std::to_string(judged_n) + " judged launches beyond the band, not all; not failed"};
  }
  if (judged_n == 0) {
    return {verdict::Verdict::unstable,
            "unstable in every launch (" + sequence + "): not judged, not failed"};
  }
  verdict::Verdict last = verdict::Verdict::pass;
  for (const verdict::ConfirmationResult& r : later) {
    if (judged(r.verdict)) last = r.verdict;
  }
  return {last, "the first launch was not judgeable, a confirmation was (" + sequence + ")"};
}

// Still undecided after `later`: no launch passed yet and no other failure decided it.
bool still_open(verdict::Verdict first, const std::vector<verdict::ConfirmationResult>& later) {
  if (!verdict_needs_confirmation(first)) return false;
  const verdict::Verdict failing =
      first == verdict::Verdict::dip ? verdict::Verdict::dip : verdict::Verdict::regression;
  for (const verdict::ConfirmationResult& r : later) {
    if (r.verdict != failing && r.verdict != verdict::Verdict::unstable) return false;
  }
  return true;
}

std::optional<double> judged_value(const verdict::KeyComparison& k) {
  if (!k.judgement) return std::nullopt;
  return k.judgement->current_median;
}

void sort_by_verdict(verdict::Comparison& c) {
  std::stable_sort(c.keys.begin(), c.keys.end(),
                   [](const verdict::KeyComparison& a, const verdict::KeyComparison& b) {
                     if (a.verdict != b.verdict) return a.verdict < b.verdict;
                     return a.key < b.key;
                   });
}

}  // namespace

bool verdict_needs_confirmation(verdict::Verdict v) { return verdict::facts_of(v).remeasured; }

std::vector<std::string> keys_to_confirm(const verdict::Comparison& first, std::size_t max_keys) {
  std::vector<std::string> keys;
  for (const verdict::KeyComparison& k : first.keys) {  // sorted by urgency already
    if (keys.size() == max_keys) break;
    if (verdict_needs_confirmation(k.verdict)) keys.push_back(k.key);
  }
  return keys;
}

std::vector<std::string> keys_to_measure(const verdict::Comparison& first,
                                         const std::vector<std::string>& keys) {
  std::vector<std::string> measure = keys;
  const std::set<std::string> wanted(keys.begin(), keys.end());
  for (const verdict::KeyComparison& k : first.keys) {
    if (k.verdict == verdict::Verdict::dip && wanted.count(k.key) && k.roofline &&
        !k.roofline->dip_from_key.empty() &&
        std::find(measure.begin(), measure.end(), k.roofline->dip_from_key) == measure.end())
      measure.push_back(k.roofline->dip_from_key);
  }
  return measure;
}

verdict::Comparison apply_confirmations(verdict::Comparison first,
                                        const std::vector<JudgedLaunch>& later,
                                        const std::vector<std::string>& asked,
                                        std::size_t max_keys) {
  const std::set<std::string> asked_set(asked.begin(), asked.end());
  std::vector<std::map<std::string, const verdict::KeyComparison*>> measured(later.size());
  for (std::size_t i = 0; i < later.size(); ++i) {
    if (!later[i].comparison) continue;
    // The busiest launch judged is what the run reports; the quietest decides whether a failure
    // may be excused as the runner's load (outcome.cpp): a quiet launch that failed too is not.
    const auto p = later[i].comparison->host_cpu_pressure;
    if (p) first.host_cpu_pressure = std::max(first.host_cpu_pressure.value_or(0.0), *p);
    if (p && first.quietest_cpu_pressure) {
      first.quietest_cpu_pressure = std::min(*first.quietest_cpu_pressure, *p);
    } else {
      first.quietest_cpu_pressure.reset();  // a launch whose load is unknown excuses nothing
    }
    for (const verdict::KeyComparison& k : later[i].comparison->keys) {
      if (k.verdict != verdict::Verdict::missing) measured[i].emplace(k.key, &k);
    }
  }
  std::size_t upheld = 0, overturned = 0, over_limit = 0;
  for (verdict::KeyComparison& k : first.keys) {
    if (!verdict_needs_confirmation(k.verdict)) continue;
    verdict::Confirmation f;
    f.first = k.verdict;
    f.first_reason = k.reason;
    f.rule =
        "REGRESSION only when every judged launch (the first, the confirmation and the one "
        "after the gap) is beyond the band";
    if (!asked_set.count(k.key)) {
      f.decision = "not re-measured (more than " + std::to_string(max_keys) +
                   " keys failed): first verdict stands";
      ++over_limit;
    } else {
      for (std::size_t i = 0; i < later.size(); ++i) {
        const auto it = measured[i].find(k.key);
        if (it == measured[i].end()) continue;
        f.later.push_back(
            {it->second->verdict, it->second->reason, later[i].source, judged_value(*it->second)});
      }
      if (f.later.empty()) {
        f.decision = later.empty() || !later.front().comparison
                         ? "no confirmation run (" +
                               (later.empty() ? std::string("none made") : later.front().source) +
                               "): first verdict stands"
                         : "absent from the confirmation launches: first verdict stands";
        ++upheld;
      } else {
        auto [final_verdict, why] = decide(f.first, f.later);
        f.decision = why;
        k.verdict = final_verdict;
        (verdict::verdict_fails_gate(final_verdict) ? upheld : overturned) += 1;
      }
    }
    std::string reason = f.decision + ". First launch: " + f.first_reason;
    for (std::size_t i = 0; i < f.later.size(); ++i) {
      reason += ". Confirmation " + std::to_string(i + 1) + ": " +
                verdict::verdict_name(f.later[i].verdict) + " " + f.later[i].reason;
    }
    k.reason = std::move(reason);
    k.confirmation = std::move(f);
  }
  std::string sources;
  for (const JudgedLaunch& l : later) sources += (sources.empty() ? "" : ", ") + l.source;
  first.confirmation_run = later.empty() ? "" : later.front().source;
  first.confirmation_note =
      std::to_string(asked.size()) + " key(s) re-measured in " + std::to_string(later.size()) +
      " later launch(es) (" + sources + "): " + std::to_string(upheld) + " still failing, " +
      std::to_string(overturned) + " not confirmed" +
      (over_limit ? ", " + std::to_string(over_limit) + " over the limit of " +
                        std::to_string(max_keys) + " (not re-measured)"
                  : "");
  sort_by_verdict(first);
  return first;
}

verdict::Comparison confirm_keys(const RunRecord& run, const Baseline* baseline,
                                 const CompareOptions& options, const ConfirmOptions& confirm,
                                 const ConfirmationLauncher& launch) {
  verdict::Comparison first = compare_keys(run, baseline, options);
  const std::vector<std::string> asked = keys_to_confirm(first, confirm.max_keys);
  if (asked.empty() || confirm.launches == 0 || !launch) return first;
  std::vector<JudgedLaunch> later;
  std::vector<std::string> keys = asked;
  for (std::size_t attempt = 1; attempt <= confirm.launches && !keys.empty(); ++attempt) {
    const ConfirmationLaunch again = launch(keys_to_measure(first, keys), attempt);
    if (!again.run && again.source.empty()) break;  // no further launch exists (a replay)
    JudgedLaunch judged_launch{std::nullopt, again.source};
    if (again.run) judged_launch.comparison = compare_keys(*again.run, baseline, options);
    const bool produced = judged_launch.comparison.has_value();
    later.push_back(std::move(judged_launch));
    if (!produced)
      break;  // a launch that failed to start would fail again: the first verdicts stand
    // The next launch re-measures only keys that every launch so far failed (or could not judge).
    std::vector<std::string> open;
    for (const std::string& key : keys) {
      verdict::Verdict first_verdict = verdict::Verdict::pass;
      for (const verdict::KeyComparison& k : first.keys) {
        if (k.key == key) first_verdict = k.verdict;
      }
      std::vector<verdict::ConfirmationResult> so_far;
      for (const JudgedLaunch& l : later) {
        for (const verdict::KeyComparison& k : l.comparison->keys) {
          if (k.key == key && k.verdict != verdict::Verdict::missing)
            so_far.push_back({k.verdict, "", "", {}});
        }
      }
      if (still_open(first_verdict, so_far)) open.push_back(key);
    }
    keys = std::move(open);
  }
  return apply_confirmations(std::move(first), later, asked, confirm.max_keys);
}

verdict::Comparison compare_with_confirmation(const RunRecord& run, const Baseline* baseline,
                                              const CompareOptions& options,
                                              const ConfirmOptions& confirm,
                                              const ConfirmationLauncher& launch) {
  verdict::Comparison c = confirm_keys(run, baseline, options, confirm, launch);
  settle_outcome(c);
  return c;
}

}  // namespace fabricgate::gate
