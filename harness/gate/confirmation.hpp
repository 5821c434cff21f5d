#pragma once
// Confirm before fail, with confirmations that outlast an episode. A key that is REGRESSION (or
// UNSTABLE: not judgeable) in a launch is measured again in two later launches, the second not
// back-to-back with the first (`fabricgate run --confirm-gap`), and fails only when every judged
// launch of the three was beyond the band. Why all of them: on one-GPU H200 machines short dips
// of 3-6 % last one to three launches (~12 s each) and a launch and its immediate confirmation
// often share one, while a real change moves every launch; a later confirmation outside the
// episode overturns the dip. The median of the three would fail a dip that caught two launches.
// A DIP is re-measured too and stands only when every launch repeats it (decide_dip).
// Correctness failures (WRONG-RESULTS, INVALID, TRANSPORT-/ALGO-CHANGED, MISSING) are never re-run:
// one wrong answer or one fallback is already a finding. Which verdicts are re-measured is the
// verdict table's `remeasured` column.
//
// The launching is injected: `fabricgate run` passes a filtered relaunch of the bench
// (harness/launch/confirmation_launch.hpp); `compare`/`report` pass the launches the run kept
// (<run>/confirm, <run>/confirm-2) or the later RUN arguments; tests pass their own.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/gate/compare.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::gate {

struct ConfirmOptions {
  std::size_t max_keys = 16;  // bounded: a change that fails more keys than this is no accident
  std::size_t launches = 2;   // confirmation launches after the first (0: none)
};

// Verdicts a later launch may overturn (the verdict table's `remeasured`).
bool verdict_needs_confirmation(verdict::Verdict v);

// Keys of `first` to re-measure, most urgent first, at most max_keys (the rest keep their verdict).
std::vector<std::string> keys_to_confirm(const verdict::Comparison& first, std::size_t max_keys);

// What a confirmation launch must measure to re-judge `keys`: the keys, plus for a DIP the
// smaller size it fell from (a dip is a relation between two sizes of one launch).
std::vector<std::string> keys_to_measure(const verdict::Comparison& first,
                                         const std::vector<std::string>& keys);

// One confirmation launch as judged against the same baseline: nullopt `comparison` when the
// launch produced no run (`source` says why).
struct JudgedLaunch {
  std::optional<verdict::Comparison> comparison;
  std::string source;
};

// The final comparison: `first` with each re-measured key's later launches, the rule and the
// decision, its outcome not settled. `asked` are the keys sent to the first confirmation launch.
verdict::Comparison apply_confirmations(verdict::Comparison first,
                                        const std::vector<JudgedLaunch>& later,
                                        const std::vector<std::string>& asked,
                                        std::size_t max_keys);

struct ConfirmationLaunch {
  std::optional<RunRecord> run;  // absent when the launch failed to produce a run.json
  std::string source;            // its directory, or why there is none; both empty: no more
                                 // launches exist (a replay of fewer launches than asked)
};
// `attempt`: 1 for the first confirmation, 2 for the second (which `run` starts after a gap).
using ConfirmationLauncher =
    std::function<ConfirmationLaunch(const std::vector<std::string>& keys, std::size_t attempt)>;

// compare_run, then (when keys need it and a baseline exists) up to `confirm.launches` later
// launches of the keys still undecided, then the combined verdicts. The launcher is not called
// when nothing needs confirming.
verdict::Comparison compare_with_confirmation(const RunRecord& run, const Baseline* baseline,
                                              const CompareOptions& options,
                                              const ConfirmOptions& confirm,
                                              const ConfirmationLauncher& launch);

// The same before the outcome is settled: judge_run's first two stages.
verdict::Comparison confirm_keys(const RunRecord& run, const Baseline* baseline,
                                 const CompareOptions& options, const ConfirmOptions& confirm,
                                 const ConfirmationLauncher& launch);

}  // namespace fabricgate::gate
