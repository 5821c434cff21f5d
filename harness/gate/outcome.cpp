#include "harness/gate/outcome.hpp"

#include "harness/verdict/verdict_table.hpp"

namespace fabricgate::gate {

namespace {

// Every failing verdict is one a host busy with other work produces by itself, no finding fails,
// and the launching host waited for a CPU more than the threshold, or another process computed
// on the launch's GPUs (runner_evidence.hpp).
bool busy_runner(const Comparison& c) {
  if (!measured_on_busy_runner(c) || c.failing_findings() > 0) return false;
  for (const KeyComparison& k : c.keys) {
    if (verdict_fails_gate(k.verdict) && !k.missing_because_incomplete &&
        !verdict_load_can_cause(k.verdict))
      return false;
  }
  return true;
}

}  // namespace

void settle_outcome(Comparison& c) {
  c.runner_busy = false;
  if (c.failing_count() > 0 || c.failing_findings() > 0) {
    c.runner_busy = busy_runner(c);
    c.exit_code = c.runner_busy ? ExitCode::infra_failure : ExitCode::gate_failure;
  } else if (c.runner_differs_count() > 0) {
    // Keys outside the fleet on a busy host: the load, not the runner's hardware, may have put
    // them there; either way the change is not judged here.
    c.runner_busy = busy_runner(c);
    c.exit_code = ExitCode::infra_failure;
  } else if (!c.run_complete) {
    c.exit_code = ExitCode::infra_failure;
  } else {
    c.exit_code = ExitCode::pass;
  }
  c.runner_evidence.busy_gpu = c.runner_busy && c.runner_evidence.foreign_load;
}

int command_exit_code(const Comparison& c, const CommandTail& tail) {
  if (!c.has_baseline && tail.baseline_required) return static_cast<int>(ExitCode::input_error);
  if ((!tail.recorded || tail.store_failed) && c.exit_code == ExitCode::pass)
    return static_cast<int>(ExitCode::infra_failure);
  return static_cast<int>(c.exit_code);
}

}  // namespace fabricgate::gate
