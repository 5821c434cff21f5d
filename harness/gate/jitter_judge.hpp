#pragma once
// JITTER (docs/STRAGGLERS.md): a launch whose tail grew. Per key, the launch's jitter is p99 / p50
// of its time_us repetitions (harness/stats p99_over_p50); the baseline keeps one such value per
// launch (BaselineEntry::time_jitter). The ratio is judged with the same noise model as the
// bandwidth: session_band over the baseline's launch values (log-normal, a session and a launch
// term, the size class's tolerance as a floor, NOISY above max_band), lower is better, so the
// limit is centre / (1 - tolerance). Only a key that otherwise passed is given JITTER, and it only
// warns: the gate's median is intact, and a tail on a shared CI runner is often the runner's.
#include <cstddef>
#include <optional>
#include <string>

#include "harness/gate/metric_judge.hpp"
#include "harness/model/baseline.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::gate {

// A launch with fewer repetitions has no p99 of its own (its p99 is its maximum by another name).
inline constexpr std::size_t kJitterMinRepetitions = 10;

// This launch's p99 / p50, or nullopt with fewer than kJitterMinRepetitions repetitions.
std::optional<double> launch_jitter(const BenchmarkResult& r);

// nullopt when the key cannot be judged: no time_jitter in the baseline entry, fewer than
// policy.min_runs launch values, or too few repetitions in this launch.
std::optional<verdict::JitterJudgement> judge_jitter(const BenchmarkResult& now,
                                                     const BaselineEntry& base,
                                                     const TolerancePolicy& policy,
                                                     const JudgedHost& host = {});

std::string describe_jitter(const verdict::JitterJudgement& j);  // one line, with the figures

}  // namespace fabricgate::gate
