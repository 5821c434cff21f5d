#pragma once
// Judging one key's performance against its baseline entry: which metric (P03, P04, P15), the
// launch's median against the prediction band of the baseline's launch medians (launch_band.hpp),
// and the launch's own stability (its repetitions' robust CV).
#include <cstdint>
#include <map>
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

}  // namespace fabricgate::gate
