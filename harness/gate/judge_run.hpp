#pragma once
// The one judge: the final verdict of every key of a run. `fabricgate run`, `compare` and every
// `report` format call judge_run and render what it returns; none of them assembles a verdict.
//
// The verdict for one key is decided here, in this order:
//   1. compare_run: the key against its baseline entry (metric_judge: the band with two noise
//      levels, launch_band.hpp), route and fingerprint checks, correctness;
//   2. confirmation: a failing key is re-measured in later launches (confirmation.hpp);
//   3. DRIFT: a key that passed, whose recent runs on this host sit on a worse level (drift.hpp).
#include "harness/gate/compare.hpp"
#include "harness/gate/confirmation.hpp"
#include "harness/gate/drift.hpp"
#include "harness/model/baseline.hpp"
#include "harness/model/run_record.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::gate {

struct JudgeOptions {
  CompareOptions compare;
  ConfirmOptions confirm;
};

// `baseline` null: nothing is gated against a baseline (the result says how to create one).
// `confirmations` empty: no key is re-measured. `history` null: no DRIFT (no store).
Comparison judge_run(const RunRecord& run, const Baseline* baseline,
                     const ConfirmationLauncher& confirmations, const RunHistory* history,
                     const JudgeOptions& options);

}  // namespace fabricgate::gate
