#pragma once
// Judging one key's performance against its baseline entry: which metric (P03, P04, P15), the
// launch's median against the prediction band of the baseline's launch medians (launch_band.hpp),
// the launch's own stability (its repetitions' robust CV), and its tail (JITTER, below).
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "harness/model/baseline.hpp"
#include "harness/model/run_record.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::gate {

struct HostHistory;

// The host a run was measured on, which host each baseline session ran on, and the host's own
// earlier launches from the store. The change question judges a host by its own level when it
// has one: its sessions in the baseline (>= host_min_sessions: its own centre and band), else its
// launches in the store and the baseline together (>= min_runs: its level, the fleet's noise,
// launch_band.hpp host_level_band). Without any, the fleet (the platform centre) judges it.
// Default-constructed: the fleet judges (the runner question, and `--gate fleet`).
struct JudgedHost {
  std::string host;
  const std::map<std::string, std::string>* session_hosts = nullptr;
  const HostHistory* history = nullptr;
  const HostHistory* anchor = nullptr;  // the host's first launches in the store (its anchor)
};

verdict::MetricJudgement judge_metric(const BenchmarkResult& now, const BaselineEntry& base,
                                      const TolerancePolicy& policy, const JudgedHost& host = {});

// NOISY (band wider than max_band) / UNSTABLE (repetitions disagree) / REGRESSION / IMPROVEMENT /
// PASS.
verdict::Verdict verdict_from_judgement(const verdict::MetricJudgement& j,
                                        const TolerancePolicy& policy);

// REGRESSION / IMPROVEMENT / PASS of one value of the judged metric against the judgement's
// limits (confirmation launches and the median of several launches are judged with it too).
verdict::Verdict verdict_against_limits(const verdict::MetricJudgement& j, double value);

std::string describe_judgement(const verdict::MetricJudgement& j, std::uint64_t bytes);  // one line

// JITTER (docs/STRAGGLERS.md): a launch whose tail grew. Per key, the launch's jitter is p99 / p50
// of its time_us repetitions (harness/stats p99_over_p50); the baseline keeps one such value per
// launch (BaselineEntry::time_jitter). The ratio is judged with the same noise model as the
// bandwidth: session_band over the baseline's launch values (log-normal, a session and a launch
// term, the size class's tolerance as a floor, NOISY above max_band), lower is better, so the
// limit is centre / (1 - tolerance). Only a key that otherwise passed is given JITTER, and it only
// warns: the gate's median is intact, and a tail on a shared CI runner is often the runner's.

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
