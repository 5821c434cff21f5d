#include "harness/gate/judge_run.hpp"

namespace fabricgate::gate {

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
  return c;
}

}  // namespace fabricgate::gate
