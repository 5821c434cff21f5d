#pragma once
// Confirm before fail: a key that is REGRESSION (or UNSTABLE: not judgeable) in one launch is
// measured again in a fresh launch, and fails only when both launches were judged REGRESSION. One
// launch in band_alpha misses its band by chance; two independent launches rarely both do, while a
// real change moves both. Correctness failures (WRONG-RESULTS, INVALID, TRANSPORT-/ALGO-CHANGED,
// MISSING) are never re-run: one wrong answer or one fallback is already a finding.
//
// The launching itself is injected (`fabricgate run` passes a filtered relaunch of the bench,
// harness/launch/confirmation_launch.hpp; tests pass their own function returning real runs).
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
};

// Verdicts a second launch may overturn.
bool verdict_needs_confirmation(Verdict v);

// Keys of `first` to re-measure, most urgent first, at most max_keys (the rest keep their verdict).
std::vector<std::string> keys_to_confirm(const Comparison& first, std::size_t max_keys);

// The final comparison: `first` with each key's first result, its confirmation and the decision.
// `second` null: the confirmation launch produced no run (the first verdicts stand, said so).
Comparison apply_confirmation(Comparison first, const Comparison* second,
                              const std::vector<std::string>& confirmed,
                              const std::string& second_source, std::size_t max_keys);

struct ConfirmationLaunch {
  std::optional<RunRecord> run;  // absent when the launch failed to produce a run.json
  std::string source;            // its directory, or why there is none
};
using ConfirmationLauncher =
    std::function<ConfirmationLaunch(const std::vector<std::string>& keys)>;

// compare_run, then (when keys need it) one confirmation launch of only those keys, then the
// combined verdicts. The launcher is not called when nothing needs confirming.
Comparison compare_with_confirmation(const RunRecord& run, const Baseline* baseline,
                                     const CompareOptions& options, const ConfirmOptions& confirm,
                                     const ConfirmationLauncher& launch);

}  // namespace fabricgate::gate
