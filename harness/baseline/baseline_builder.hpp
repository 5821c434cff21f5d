#pragma once
// Making and refreshing baselines from runs. Baselines change through pull requests, so every
// change comes with a reviewable diff (baseline_diff.hpp) and files are written atomically.
#include <string>
#include <vector>

#include "harness/model/baseline.hpp"
#include "harness/model/run_record.hpp"

namespace fabricgate::baseline {

struct BaselineBuildOptions {
  std::string platform;  // "" = the runs' platform
  std::string now;       // ISO 8601 UTC timestamp recorded as the merge date
  TolerancePolicy policy = TolerancePolicy::defaults();
};

struct BuiltBaseline {
  Baseline baseline;
  std::vector<std::string> left_out;  // "key: why" for keys that could not be baselined
};

// Needs >= policy.min_runs complete runs of one platform, one identity and one GPUs-per-process
// mode. Per key: median of the run medians, pooled repetition samples, union of NCCL's choices;
// runs that disagree on a key's transport are refused (one of them fell back, P05/P06).
// Throws InputError naming the offending run.
BuiltBaseline create_baseline(const std::vector<RunRecord>& runs,
                              const BaselineBuildOptions& options);

// The runs that may stand for a platform's level: a launch measured while the launching host
// waited for a CPU more than `busy_threshold` of the time (the policy's busy_cpu_pressure, the
// same rule that makes a failure "runner busy, not judged") is left out, one "run: why" line each
// in `left_out`. A launch without a pressure figure is kept (older runs, kernels without PSI).
std::vector<RunRecord> quiet_runs(const std::vector<RunRecord>& runs, double busy_threshold,
                                  std::vector<std::string>& left_out);

// Updating (a rolling window of passing launches per key) is baseline_window.hpp.

std::string utc_now_iso8601();

}  // namespace fabricgate::baseline
