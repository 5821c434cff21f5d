#include "harness/gate/judge_run.hpp"

namespace fabricgate::gate {

void mark_busy_runner(Comparison& c, double threshold) {
  c.busy_threshold = threshold;
  if (c.exit_code != ExitCode::gate_failure || !c.host_cpu_pressure ||
      *c.host_cpu_pressure <= threshold || c.failing_findings() > 0)
    return;
  for (const KeyComparison& k : c.keys) {
    if (verdict_fails_gate(k.verdict) && !k.missing_because_incomplete &&
        !verdict_load_can_cause(k.verdict))
      return;
  }
  c.runner_busy = true;
  c.exit_code = ExitCode::infra_failure;
}

Comparison judge_run(const RunRecord& run, const Baseline* baseline,
                     const ConfirmationLauncher& confirmations, const RunHistory* history,
                     const JudgeOptions& options) {
  Comparison c =
      compare_with_confirmation(run, baseline, options.compare, options.confirm, confirmations);
  if (history) {
    // Without a baseline the defaults hold, spread over the keys this run compared.
    TolerancePolicy policy = baseline ? baseline->policy : TolerancePolicy::defaults();
    if (!baseline) set_family_size(policy, c.keys.size());
    apply_history_drift(c, run, *history, drift_policy_from(policy), baseline);
  }
  mark_busy_runner(c, baseline ? baseline->policy.busy_cpu_pressure
                               : TolerancePolicy::defaults().busy_cpu_pressure);
  return c;
}

}  // namespace fabricgate::gate
