#pragma once
// The one judge: the final verdict of every key of a run. `fabricgate run`, `compare` and every
// `report` format call judge_run and render what it returns; none of them assembles a verdict.
//
// The verdict for one key is decided here, in this order:
//   1. compare_run: the key against its baseline entry (metric_judge: the band with two noise
//      levels, launch_band.hpp), route and fingerprint checks, correctness;
//   2. confirmation: a failing key is re-measured in later launches (confirmation.hpp);
//   3. the two questions (runner_split.hpp): the change verdict (against this host's own level
//      from `history` where it has one, host_history.hpp) and the runner verdict (against the
//      fleet); --gate (CompareOptions::gate) decides which one the exit code answers;
//   3b. a paired check on this runner (paired_check.hpp) decides the RUNNER-DIFFERS keys of a
//      changed setup when one ran (`run`) or was recorded (`compare`, `report`);
//   4. DRIFT: a key that passed, whose recent runs on this host sit on a worse level (drift.hpp);
//   5. a busy runner: when every failing verdict is one that a loaded host produces by itself
//      (REGRESSION, BELOW-ROOFLINE, DIP, DRIFT), no cluster finding fails, and in a judged launch
//      the launching host had a task waiting for a CPU more than the baseline policy's
//      `busy_cpu_pressure` (default 0.25) of the time
//      (/proc/pressure/cpu), the run is "runner busy, not judged": exit 3, not 1. The verdicts stay
//      in the report; a wrong answer, a fallback or a missing key still fails.
#include "harness/gate/acks.hpp"
#include "harness/gate/compare.hpp"
#include "harness/gate/confirmation.hpp"
#include "harness/gate/drift.hpp"
#include "harness/gate/paired_check.hpp"
#include "harness/model/baseline.hpp"
#include "harness/model/run_record.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::gate {

// Asked once the change question has set keys aside as RUNNER-DIFFERS (under --gate change or
// both): the paired check that decides them, launched (`run`) or read back from the run directory
// (`compare`, `report`); nullopt when there is none (the provider may say why in
// `Comparison::paired_check_skipped`).
using PairedCheckProvider =
    std::function<std::optional<PairedCheck>(verdict::Comparison&, const RunRecord&)>;

struct JudgeOptions {
  CompareOptions compare;
  ConfirmOptions confirm;
  PairedCheckProvider paired_check;  // empty: none
  Acks acks;                         // acknowledged failures (acks.hpp); empty: none
  std::string today;                 // YYYY-MM-DD for the acks; "" = utc_today()
};

// The exit code comes from one place, once: outcome.hpp settle_outcome at judge_run's end (the
// stages above leave the outcome unsettled); it records the cause and the two questions' answers
// that every printer reads.
// Step 5 alone (exposed for tests): marks `c` runner-busy when the rule above holds.
void mark_busy_runner(verdict::Comparison& c, double threshold);

// `baseline` null: nothing is gated against a baseline (the result says how to create one).
// `confirmations` empty: no key is re-measured. `history` null: no DRIFT (no store).
verdict::Comparison judge_run(const RunRecord& run, const Baseline* baseline,
                              const ConfirmationLauncher& confirmations, const RunHistory* history,
                              const JudgeOptions& options);

}  // namespace fabricgate::gate
