#include "harness/gate/judge_run.hpp"

#include "harness/cluster/node_actions.hpp"
#include "harness/gate/fingerprint_guard.hpp"
#include "harness/gate/host_history.hpp"
#include "harness/gate/outcome.hpp"
#include "harness/gate/runner_evidence.hpp"
#include "harness/gate/runner_split.hpp"

namespace fabricgate::gate {

void mark_busy_runner(verdict::Comparison& c, double threshold) {
  c.busy_threshold = threshold;
  settle_outcome(c);
}

verdict::Comparison judge_run(const RunRecord& run, const Baseline* baseline,
                              const ConfirmationLauncher& confirmations, const RunHistory* history,
                              const JudgeOptions& options) {
  // This host's own earlier launches give the change question its reference (host_history.hpp);
  // the first launch and its confirmations are judged against the same level.
  HostHistory host;
  HostHistory anchor;
  CompareOptions compare = options.compare;
  if (history) {
    // Unjudged launches of a host outside the fleet stand for its level only while the software
    // is the baseline's (host_history.hpp).
    const bool software_as_baseline =
        !baseline || !run.fingerprint.present || software_changes_since(*baseline, run).empty();
    host = host_history_from(*history, run, software_as_baseline);
    compare.host_history = &host;
    // Its first runs, by the same join rule: the level a slow slide or a step is measured from.
    anchor = host_history_from(RunHistory{history->source, history->earliest}, run,
                               software_as_baseline);
    compare.host_anchor = &anchor;
  }
  verdict::Comparison c = confirm_keys(run, baseline, compare, options.confirm, confirmations);
  // Known before the runner split: a busy launch's offset plans no node action (runner_split).
  c.busy_threshold =
      baseline ? baseline->policy.busy_cpu_pressure : TolerancePolicy::defaults().busy_cpu_pressure;
  split_change_and_runner(c, run, options.compare.gross_change);
  if (options.paired_check && c.gate != verdict::GateMode::fleet && c.runner_differs_count() > 0) {
    if (const std::optional<PairedCheck> paired = options.paired_check(c, run))
      apply_paired_check(c, *paired);
  }
  if (history) {
    // Without a baseline the defaults hold, spread over the keys this run compared.
    TolerancePolicy policy = baseline ? baseline->policy : TolerancePolicy::defaults();
    if (!baseline) set_family_size(policy, c.keys.size());
    apply_history_drift(c, run, *history, drift_policy_from(policy), baseline);
    if (history->unsealed_runs > 0) c.warnings.push_back(unsealed_runs_warning(*history));
  }
  // Acknowledged failures (acks.hpp), before the one outcome is settled.
  if (!options.acks.entries.empty())
    apply_acks(c, options.acks, run.platform, options.today.empty() ? utc_today() : options.today);
  // What the runner was doing (runner_evidence.hpp): DEGRADED-LINK findings, throttling in the
  // failing keys' reasons, a foreign process on the launch's GPUs.
  add_runner_evidence(c, run);
  // Acknowledged runner findings (a node known to be slow until its repair), once every finding
  // is known: they fail nothing and plan no node action.
  if (!options.acks.entries.empty() &&
      apply_finding_acks(c.cluster_findings, c.warnings, options.acks, run.platform,
                         options.today.empty() ? utc_today() : options.today) > 0) {
    c.node_actions = cluster::node_action_lines(
        cluster::plan_node_actions(actionable_findings(c), run.nodes, run.run_id));
  }
  // The one outcome (outcome.hpp), settled once every stage has spoken; what the printers read.
  settle_outcome(c);
  return c;
}

}  // namespace fabricgate::gate
