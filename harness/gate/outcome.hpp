#pragma once
// The one place that turns a comparison's verdicts and findings into its outcome and exit code,
// called once at the end of judge_run (and by compare_run / compare_with_confirmation /
// apply_runner_evidence when one of them is used alone), and the one place that adds what only the
// command knows (the store, a required baseline). It records why (Comparison::settled.cause) and
// the answers to the two questions (settled.change, settled.runner): printers only read them.
//
//   1  a failing key or a failing finding: the change regressed, or (--gate fleet|both) the runner
//      is outside the fleet / under its roofline floor, or a correctness / transport failure
//   3  not judged here: a busy runner (every failure one that a loaded host makes by itself, and
//      the launching host's CPU pressure above the policy's busy_cpu_pressure: judge_run.hpp), keys
//      outside the fleet on a host with no history of its own (RUNNER-DIFFERS: the change could
//      not be told from the runner), a degraded runner (every failure a key slower than the host's
//      own level while the software is the baseline's: the runner changed, not the setup), a run
//      with no baseline under its roofline floor (--gate change: the runner, not the change), an
//      incomplete run, or a store that could not be read or written (the verdict is not kept).
//      Unjudged never reads as passed.
//   0  otherwise.
#include "harness/verdict/comparison.hpp"

namespace fabricgate::gate {

// Sets c.exit_code, c.settled (cause, change and runner answers), c.runner_busy,
// c.runner_degraded and c.below_roofline_unjudged from the verdicts, the findings,
// c.run_complete, c.host_cpu_pressure and c.busy_threshold (0: the busy rule is not applied).
void settle_outcome(verdict::Comparison& c);

// The launch was measured on a busy runner: the launching host waited for a CPU more than the
// busy threshold, or another process computed on its GPUs. Whatever its verdicts, such a launch
// cannot stand for the host's level (host_history.hpp).
bool measured_on_busy_runner(const verdict::Comparison& c);

// What the results store records as every key's verdict of a launch measured on a busy runner:
// not a verdict of the table, so it never joins a host's level, a DRIFT series or a baseline, and
// `fabricgate history` shows why.
inline constexpr const char* kBusyLaunchVerdict = "RUNNER-BUSY";

// The settled outcome in words, for records and dashboards: FAIL (exit 1), NOT JUDGED (exit 3),
// PASS (exit 0 against a baseline) or NO BASELINE (exit 0, nothing gated against one).
std::string outcome_word(const verdict::Comparison& c);
bool is_outcome_word(const std::string& word);  // one of the four above

// What the command adds after the judgement.
struct CommandTail {
  bool store_failed = false;       // the store could not be read (judged without history)
  bool recorded = true;            // the run was recorded in the store (or none was asked)
  bool baseline_required = false;  // --require-baseline
};

// The process exit code of run/compare/report/publish: 2 when a required baseline is missing,
// 3 when a pass was not recorded or its history could not be read, else the comparison's code.
int command_exit_code(const verdict::Comparison& c, const CommandTail& tail);

}  // namespace fabricgate::gate
