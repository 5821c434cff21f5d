#include "harness/gate/outcome.hpp"

#include "harness/verdict/finding_ids.hpp"
#include "harness/verdict/verdict_table.hpp"

namespace fabricgate::gate {

namespace {

// Every failing verdict is one a host busy with other work produces by itself, no finding fails,
// and the launching host waited for a CPU more than the threshold, or another process computed
// on the launch's GPUs (runner_evidence.hpp).
bool busy_runner(const verdict::Comparison& c) {
  if (!measured_on_busy_runner(c) || c.failing_findings() > 0) return false;
  // Every judged launch must have been busy: one busy confirmation does not excuse a failure
  // that a quiet launch measured (issue 52). A foreign GPU process is evidence on its own.
  const bool every_launch_busy = c.busy_threshold > 0 && c.quietest_cpu_pressure &&
                                 *c.quietest_cpu_pressure > c.busy_threshold;
  if (!every_launch_busy && !c.runner_evidence.foreign_load) return false;
  for (const verdict::KeyComparison& k : c.keys) {
    if (verdict::verdict_fails_gate(k.verdict) && !k.missing_because_incomplete &&
        !verdict::verdict_load_can_cause(k.verdict))
      return false;
  }
  return true;
}

// A known host whose software is the baseline's failed only against the level the store learned
// for it: a REGRESSION or DRIFT judged around its recorded launches (rolling, its first level, or
// the fleet's band for a NOISY host inside the fleet), and no finding failed. Nothing that the
// change question compares changed, so the runner changed: "runner degraded", not a change failure.
// A software change, a failure against the fleet, a correctness or transport verdict, a missing key
// or a failing finding keeps exit 1. So does a fall below the host's own sessions in the committed
// baseline ("host-baseline"): that level was reviewed and accepted for the runner, the store's
// level was only learned. --gate fleet asks about the runner, so it stays a failure there.
bool degraded_runner(const verdict::Comparison& c) {
  if (c.gate == verdict::GateMode::fleet || !c.software_changes.empty() || c.failing_findings() > 0)
    return false;
  // Unchanged only where both fingerprints were compared: an imported run without one may carry
  // any software.
  if (!c.fingerprint_note.empty()) return false;
  std::size_t failing = 0;
  for (const verdict::KeyComparison& k : c.keys) {
    if (!verdict::verdict_fails_gate(k.verdict)) continue;
    if (k.missing_because_incomplete) continue;
    if (k.verdict != verdict::Verdict::regression && k.verdict != verdict::Verdict::drift)
      return false;
    if (!k.judgement) return false;
    const std::string& ref = k.judgement->reference;
    if (ref != verdict::reference::host_history && ref != verdict::reference::host_anchor &&
        ref != verdict::reference::fleet_for_host)
      return false;
    ++failing;
  }
  return failing > 0;
}

// With no baseline the roofline floors are all there is to judge. Under --gate change they do not
// fail (they are the runner's), but a runner under them is no pass either: what it measured says
// nothing about the change.
std::vector<std::string> keys_under_floor_without_baseline(const verdict::Comparison& c) {
  std::vector<std::string> out;
  if (c.has_baseline || c.gate != verdict::GateMode::change) return out;
  for (const verdict::KeyComparison& k : c.keys) {
    if (k.roofline && k.roofline->status == roofline::Status::below_floor)
      out.push_back(k.key + ": " + k.roofline->text);
  }
  return out;
}

// Why the exit code is what it is, in the precedence the headline has always shown: keys outside
// the fleet on a host with no history name the run (unless the runner was busy or the run is cut
// short) before a degraded runner; a busy runner before an incomplete run.
verdict::OutcomeCause cause_of(const verdict::Comparison& c) {
  switch (c.exit_code) {
    case ExitCode::gate_failure: return verdict::OutcomeCause::failed;
    case ExitCode::pass:
      return c.has_baseline ? verdict::OutcomeCause::pass : verdict::OutcomeCause::no_baseline;
    default: break;
  }
  if (!c.runner_busy && c.run_complete && c.runner_differs_count() > 0)
    return verdict::OutcomeCause::runner_differs;
  if (c.runner_degraded) return verdict::OutcomeCause::runner_degraded;
  if (c.runner_busy) return verdict::OutcomeCause::runner_busy;
  if (c.run_complete && !c.below_roofline_unjudged.empty())
    return verdict::OutcomeCause::below_roofline_unjudged;
  return verdict::OutcomeCause::incomplete;
}

// Keys the change question fails: a failing verdict of a key that was measured, other than a
// roofline floor (a finding about the runner, not the change).
std::size_t change_failing_keys(const verdict::Comparison& c) {
  std::size_t failing = 0;
  for (const verdict::KeyComparison& k : c.keys) {
    if (verdict::verdict_fails_gate(k.verdict) && !k.missing_because_incomplete &&
        !verdict::verdict_about_runner(k.verdict))
      ++failing;
  }
  return failing;
}

verdict::ChangeAnswer change_answer(const verdict::Comparison& c, std::size_t failing) {
  if (!c.has_baseline) return verdict::ChangeAnswer::no_baseline;
  if (c.gate == verdict::GateMode::fleet) return verdict::ChangeAnswer::not_asked;
  if (c.runner_busy) return verdict::ChangeAnswer::runner_busy;
  if (c.runner_degraded) return verdict::ChangeAnswer::runner_degraded;
  if (failing > 0) return verdict::ChangeAnswer::fail;
  return c.runner_differs_count() > 0 ? verdict::ChangeAnswer::runner_differs
                                      : verdict::ChangeAnswer::no_regression;
}

std::string runner_answer_of(const verdict::Comparison& c) {
  if (!c.has_baseline)
    return c.below_roofline_unjudged.empty() ? verdict::runner_answer::not_judged
                                             : verdict::runner_answer::below_roofline;
  if (c.runner_degraded)
    return verdict::runner_answer::degraded;  // slower than itself: what made this run exit 3
  for (const verdict::ClusterFinding& f : c.cluster_findings) {
    if (f.id == verdict::finding_id::host_outlier || f.id == verdict::finding_id::degraded_link)
      return f.id;
  }
  if (c.runner_evidence.foreign_load) return verdict::runner_answer::busy_gpu;
  if (c.outside_fleet_count() > 0) return verdict::runner_answer::host_outlier;
  for (const verdict::ClusterFinding& f : c.cluster_findings) {
    if (f.id == verdict::finding_id::below_roofline) return verdict::runner_answer::below_roofline;
  }
  for (const verdict::KeyComparison& k : c.keys) {
    if (verdict::verdict_about_runner(k.verdict)) return verdict::runner_answer::below_roofline;
  }
  return verdict::runner_answer::like_fleet;
}

}  // namespace

void settle_outcome(verdict::Comparison& c) {
  c.runner_busy = false;
  c.runner_degraded = false;
  c.below_roofline_unjudged = keys_under_floor_without_baseline(c);
  if (c.failing_count() > 0 || c.failing_findings() > 0) {
    c.runner_busy = busy_runner(c);
    c.runner_degraded = !c.runner_busy && degraded_runner(c);
    c.exit_code =
        c.runner_busy || c.runner_degraded ? ExitCode::infra_failure : ExitCode::gate_failure;
  } else if (c.runner_differs_count() > 0) {
    // Keys outside the fleet on a busy host: the load, not the runner's hardware, may have put
    // them there; either way the change is not judged here.
    c.runner_busy = busy_runner(c);
    c.exit_code = ExitCode::infra_failure;
  } else if (!c.run_complete || !c.below_roofline_unjudged.empty()) {
    c.exit_code = ExitCode::infra_failure;
  } else {
    c.exit_code = ExitCode::pass;
  }
  c.runner_evidence.busy_gpu = c.runner_busy && c.runner_evidence.foreign_load;
  c.settled.cause = cause_of(c);
  c.settled.change_failing = change_failing_keys(c);
  c.settled.change = change_answer(c, c.settled.change_failing);
  c.settled.runner = runner_answer_of(c);
}

int command_exit_code(const verdict::Comparison& c, const CommandTail& tail) {
  if (!c.has_baseline && tail.baseline_required) return static_cast<int>(ExitCode::input_error);
  if ((!tail.recorded || tail.store_failed) && c.exit_code == ExitCode::pass)
    return static_cast<int>(ExitCode::infra_failure);
  return static_cast<int>(c.exit_code);
}

std::string outcome_word(const verdict::Comparison& c) {
  if (c.exit_code == ExitCode::gate_failure) return "FAIL";
  if (c.exit_code != ExitCode::pass) return "NOT JUDGED";
  return c.has_baseline ? "PASS" : "NO BASELINE";
}

bool is_outcome_word(const std::string& word) {
  return word == "FAIL" || word == "NOT JUDGED" || word == "PASS" || word == "NO BASELINE";
}

bool measured_on_busy_runner(const verdict::Comparison& c) {
  const bool cpu =
      c.busy_threshold > 0 && c.host_cpu_pressure && *c.host_cpu_pressure > c.busy_threshold;
  return cpu || c.runner_evidence.foreign_load;
}

}  // namespace fabricgate::gate
