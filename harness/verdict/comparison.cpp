#include "harness/verdict/comparison.hpp"

#include <array>

#include <fmt/format.h>

#include "harness/verdict/finding_ids.hpp"
#include "harness/verdict/verdict_table.hpp"

namespace fabricgate::verdict {

const char* metric_name(Metric m) {
  switch (m) {
    case Metric::time_us: return "time_us";
    case Metric::algbw_GBps: return "algbw_GBps";
    case Metric::busbw_GBps: return "busbw_GBps";
  }
  return "?";
}

const char* metric_unit(Metric m) { return m == Metric::time_us ? "us" : "GB/s"; }

bool metric_higher_is_better(Metric m) { return m != Metric::time_us; }

const char* gate_mode_name(GateMode m) {
  switch (m) {
    case GateMode::change: return "change";
    case GateMode::fleet: return "fleet";
    case GateMode::both: return "both";
  }
  return "?";
}

const char* change_answer_word(ChangeAnswer a) {
  switch (a) {
    case ChangeAnswer::no_regression: return "PASS";
    case ChangeAnswer::fail: return "FAIL";
    case ChangeAnswer::not_asked: return "NOT-ASKED";
    default: return "NOT-JUDGED";
  }
}

GateMode parse_gate_mode(const std::string& text, const std::string& field) {
  for (const GateMode m : {GateMode::change, GateMode::fleet, GateMode::both}) {
    if (text == gate_mode_name(m)) return m;
  }
  throw InputError("", field, "change, fleet or both");
}

std::size_t Comparison::runner_differs_count() const {
  std::size_t n = 0;
  for (const KeyComparison& k : keys) n += verdict_change_unjudged(k.verdict) ? 1 : 0;
  return n;
}

std::size_t Comparison::outside_fleet_count() const {
  std::size_t n = 0;
  for (const KeyComparison& k : keys) n += k.outside_fleet ? 1 : 0;
  return n;
}

std::vector<VerdictCount> Comparison::counts() const {
  const std::size_t kVerdicts = verdict_table().size();
  std::vector<std::size_t> n(kVerdicts, 0);
  for (const KeyComparison& k : keys) ++n[static_cast<std::size_t>(k.verdict)];
  std::vector<VerdictCount> out;
  for (std::size_t i = 0; i < kVerdicts; ++i) {
    if (n[i] > 0) out.push_back({static_cast<Verdict>(i), n[i]});
  }
  return out;
}

std::size_t Comparison::failing_count() const {
  std::size_t n = 0;
  for (const KeyComparison& k : keys) {
    if (verdict_fails_gate(k.verdict) && !k.missing_because_incomplete) ++n;
  }
  return n;
}

std::size_t Comparison::gated_count() const {
  std::size_t n = 0;
  for (const KeyComparison& k : keys) n += facts_of(k.verdict).gated ? 1 : 0;
  return n;
}

std::size_t Comparison::warning_count() const {
  std::size_t n = 0;
  for (const KeyComparison& k : keys) n += facts_of(k.verdict).warns ? 1 : 0;
  return n;
}

std::size_t Comparison::failing_findings() const {
  std::size_t n = 0;
  for (const ClusterFinding& f : cluster_findings) n += f.fails_gate ? 1 : 0;
  return n;
}

std::string Comparison::headline() const {
  std::string counts_text;
  for (const VerdictCount& c : counts()) {
    if (!counts_text.empty()) counts_text += ", ";
    counts_text += std::to_string(c.count) + " " + verdict_name(c.verdict);
  }
  std::string head;
  switch (settled.cause) {
    case OutcomeCause::failed:
      head = "FAIL: " + std::to_string(failing_count()) + " of " + std::to_string(keys.size()) +
             " keys fail the gate";
      if (failing_findings() > 0)
        head += ", " + std::to_string(failing_findings()) + " cluster findings";
      break;
    case OutcomeCause::runner_differs:
      head = fmt::format(
          "RUNNER DIFFERS, CHANGE NOT JUDGED HERE: {} of {} keys sit outside the fleet on host "
          "{}, which has no history of its own; {} keys judged, none failed",
          runner_differs_count(), keys.size(), host_id.empty() ? "?" : host_id, gated_count());
      break;
    case OutcomeCause::runner_degraded:
      head = fmt::format(
          "RUNNER DEGRADED, CHANGE NOT BLAMED: {} of {} keys are slower than host {}'s own "
          "level while the software is the baseline's; look at the runner (fabricgate nodes, "
          "fabricgate history)",
          failing_count(), keys.size(), host_id.empty() ? "?" : host_id);
      break;
    case OutcomeCause::runner_busy:
      head = runner_evidence.busy_gpu
                 ? fmt::format(
                       "RUNNER BUSY, NOT JUDGED: {} of {} keys look worse, but another process "
                       "computed on the launch's GPU: {}; rerun on an idle runner",
                       failing_count() + runner_differs_count(), keys.size(),
                       runner_evidence.summary())
                 : fmt::format(
                       "RUNNER BUSY, NOT JUDGED: {} of {} keys look worse, but a task waited for "
                       "a CPU of the launching host {:.0f} % of the launch (over {:.0f} %): other "
                       "work, not the fabric, may have cost it; rerun on an idle runner",
                       failing_count() + runner_differs_count(), keys.size(),
                       100 * host_cpu_pressure.value_or(0), 100 * busy_threshold);
      break;
    case OutcomeCause::below_roofline_unjudged:
      head = fmt::format(
          "BELOW ROOFLINE, NOT JUDGED HERE: {} of {} keys are under their roofline floor on this "
          "runner, and there is no baseline to judge the change: {}{}; the runner does less than "
          "its hardware should (look at its links: fabricgate fingerprint)",
          below_roofline_unjudged.size(), keys.size(),
          below_roofline_unjudged.empty() ? std::string("?") : below_roofline_unjudged.front(),
          below_roofline_unjudged.size() > 1
              ? fmt::format(" (+{} more)", below_roofline_unjudged.size() - 1)
              : std::string());
      break;
    case OutcomeCause::incomplete: head = "INCOMPLETE RUN: " + incomplete_reason; break;
    case OutcomeCause::pass:
      head = "PASS: " + std::to_string(keys.size()) + " keys compared";
      break;
    case OutcomeCause::no_baseline:
      head = roofline_policy.empty()
                 ? "NO BASELINE: " + std::to_string(keys.size()) + " keys not gated"
                 : "NO BASELINE: " + std::to_string(keys.size()) +
                       " keys judged on roofline floors, dips and correctness only";
      break;
  }
  std::string line = counts_text.empty() ? head : head + " (" + counts_text + ")";
  // Never let keys that were not judged read as passes: say how many were gated at all.
  const std::size_t gated = gated_count();
  if (has_baseline && gated < keys.size()) {
    line += "; " + std::to_string(gated) + " of " + std::to_string(keys.size()) + " keys gated, " +
            std::to_string(keys.size() - gated) + " not gated";
  }
  return line;
}

namespace {

std::size_t count_reference(const std::vector<KeyComparison>& keys,
                            bool (*family)(std::string_view)) {
  std::size_t n = 0;
  for (const KeyComparison& k : keys) {
    if (k.judgement && facts_of(k.verdict).gated && family(k.judgement->reference)) ++n;
  }
  return n;
}

}  // namespace

std::string Comparison::change_line() const {
  if (settled.change == ChangeAnswer::no_baseline) return "Change: not judged (no baseline)";
  if (settled.change == ChangeAnswer::not_asked)
    return "Change: not asked (--gate fleet judges the runner)";
  const std::size_t failing = settled.change_failing;
  const std::size_t host = count_reference(keys, reference::is_host_level);
  const std::size_t fleet = count_reference(keys, reference::is_fleet);
  std::string line;
  switch (settled.change) {
    case ChangeAnswer::runner_busy:
      line = fmt::format("Change: not judged, the runner was busy ({} key(s) look worse)",
                         failing + runner_differs_count());
      break;
    case ChangeAnswer::runner_degraded:
      line = fmt::format(
          "Change: not blamed, {} key(s) slower than the host's own level with the software "
          "unchanged (RUNNER DEGRADED)",
          failing);
      break;
    case ChangeAnswer::fail: line = fmt::format("Change: FAIL, {} key(s) fail", failing); break;
    case ChangeAnswer::runner_differs:
      line =
          fmt::format("Change: NOT JUDGED on {} key(s) (RUNNER-DIFFERS)", runner_differs_count());
      break;
    default: line = "Change: no regression";
  }
  line += fmt::format("; {} key(s) judged against {}'s own history", host,
                      host_id.empty() ? std::string("this host") : "host " + host_id);
  if (host_history_launches > 0)
    line += fmt::format(" ({} earlier launches in the store)", host_history_launches);
  line += fmt::format(", {} against the fleet", fleet);
  std::size_t set_aside = 0;
  for (const KeyComparison& k : keys)
    set_aside += k.judgement && k.judgement->stored_level_set_aside;
  if (set_aside > 0)
    line += fmt::format(
        " ({} whose stored level lay further from the fleet than any host of the baseline: a "
        "finding, not a level; check the results store)",
        set_aside);
  if (gross_change_keys > 0)
    line += fmt::format(" ({} beyond the gross-change limit of {})", gross_change_keys,
                        gross_change_source);
  if (!paired_check_dir.empty())
    line += fmt::format(
        "; paired check on this runner ({} pair(s), {}): {} key(s) worse with the change, {} "
        "within the tolerance, {} not decided",
        paired_check_pairs, paired_check_dir, paired_check_worse, paired_check_within,
        paired_check_open);
  else if (!paired_check_skipped.empty())
    line += "; " + paired_check_skipped;
  line += software_changes.empty()
              ? "; software as the baseline's"
              : "; software changed: " + software_changes.front() +
                    (software_changes.size() > 1
                         ? fmt::format(" (+{} more)", software_changes.size() - 1)
                         : "");
  return line;
}

std::string Comparison::runner_line() const {
  if (!has_baseline && settled.runner == runner_answer::below_roofline)
    return fmt::format(
        "Runner: BELOW-ROOFLINE on {} key(s), no baseline: {}", below_roofline_unjudged.size(),
        below_roofline_unjudged.empty() ? std::string("?") : below_roofline_unjudged.front());
  if (!has_baseline) return "Runner: not judged against a fleet (no baseline)";
  std::string findings;
  for (const ClusterFinding& f : cluster_findings) {
    if (f.id == finding_id::host_outlier || f.id == finding_id::below_roofline ||
        f.id == finding_id::degraded_link)
      findings += (findings.empty() ? "" : "; ") + f.text;
  }
  // What the runner was doing (harness/gate/runner_evidence.hpp): another process on its GPU.
  if (runner_evidence.foreign_load)
    findings += (findings.empty() ? "" : "; ") +
                std::string("another process computed on the GPU: ") + runner_evidence.summary();
  if (runner_degraded)
    findings = fmt::format("degraded: {} key(s) slower than its own level, software unchanged",
                           failing_count()) +
               (findings.empty() ? "" : "; " + findings);
  if (!findings.empty()) return "Runner: " + findings;
  if (settled.runner == runner_answer::host_outlier)
    return fmt::format("Runner: {} key(s) outside the fleet (see the verdicts)",
                       outside_fleet_count());
  if (settled.runner != runner_answer::like_fleet) return "Runner: " + settled.runner;
  return fmt::format("Runner: {} is like the fleet (no key outside the fleet band)",
                     host_id.empty() ? std::string("this host") : "host " + host_id);
}

}  // namespace fabricgate::verdict
