#pragma once
// Judging one key's performance against its baseline entry: which metric (P03, P04, P15), what
// tolerance, how far the median moved, and the rank test's raw p-value. The verdict itself needs
// the p-values of all keys (multiple-comparison control), so it is decided in compare.cpp.
#include "harness/gate/comparison.hpp"
#include "harness/model/baseline.hpp"
#include "harness/model/run_record.hpp"

namespace fabricgate::gate {

MetricJudgement judge_metric(const BenchmarkResult& now, const BaselineEntry& base,
                             const TolerancePolicy& policy);

// PASS / REGRESSION / IMPROVEMENT / AMBIGUOUS once p_adjusted is known.
Verdict verdict_from_judgement(const MetricJudgement& j, double alpha);

std::string describe_judgement(const MetricJudgement& j, std::uint64_t bytes);  // one line

}  // namespace fabricgate::gate
