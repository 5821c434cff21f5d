#pragma once
// `baseline update`: thresholds learnt from history. Each new launch whose key PASSes against the
// current baseline (or improves, or is NOISY) adds its launch median to that key's rolling window
// of the policy's `window` launches, so the band follows the real launch-to-launch noise; a
// launch that regressed, was UNSTABLE or changed route is never merged (it would widen the band
// to let itself pass). Keys new to the baseline are added when measured in >= min_runs launches.
#include <string>
#include <vector>

#include "harness/baseline/baseline_builder.hpp"

namespace fabricgate::baseline {

struct WindowUpdate {
  BuiltBaseline built;
  std::vector<std::string> not_merged;  // "key: run R: VERDICT (reason)"
  std::size_t launches_merged = 0;      // (key, launch) pairs added
};

// Throws InputError for an incomplete run, a run given twice, another platform or identity.
WindowUpdate update_baseline_window(const Baseline& old, const std::vector<RunRecord>& runs,
                                    const std::string& now);

}  // namespace fabricgate::baseline
