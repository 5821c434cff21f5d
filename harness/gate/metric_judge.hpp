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

// The host a run was measured on, and which host each baseline session ran on: a host with
// enough sessions of its own in the baseline is judged by its own centre and band.
struct JudgedHost {
  std::string host;
  const std::map<std::string, std::string>* session_hosts = nullptr;
};

MetricJudgement judge_metric(const BenchmarkResult& now, const BaselineEntry& base,
                             const TolerancePolicy& policy, const JudgedHost& host = {});

// NOISY (band wider than max_band) / UNSTABLE (repetitions disagree) / REGRESSION / IMPROVEMENT /
// PASS.
Verdict verdict_from_judgement(const MetricJudgement& j, const TolerancePolicy& policy);

// REGRESSION / IMPROVEMENT / PASS of one value of the judged metric against the judgement's
// limits (confirmation launches and the median of several launches are judged with it too).
Verdict verdict_against_limits(const MetricJudgement& j, double value);

std::string describe_judgement(const MetricJudgement& j, std::uint64_t bytes);  // one line

}  // namespace fabricgate::gate
