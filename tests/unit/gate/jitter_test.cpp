// JITTER: a launch's p99/p50 against the baseline's launches of that ratio, judged with the
// bandwidth's noise model (harness/gate/metric_judge.hpp). Expected numbers come from
// tests/unit/gate/jitter_reference.py (Python standard library, independent of this code).
#include "harness/gate/metric_judge.hpp"

#include <gtest/gtest.h>

#include "harness/baseline/baseline_builder.hpp"
#include "harness/gate/compare.hpp"
#include "harness/stats/statistics.hpp"
#include "harness/verdict/verdict_table.hpp"
#include "tests/unit/gate/gate_fixtures.hpp"

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using testing::json;
using testing::ResultSpec;
using testing::RunSpec;

const std::vector<double> kRatios{1.20, 1.25, 1.18, 1.22, 1.24};

// 21 x 10.0, 18 x 10.5 and one tail value: median 10.0 (the baseline's), p50 (nearest rank 20 of
// 40) = 10.0, p99 (rank 40) = the tail.
std::vector<double> repetitions_with_tail(double tail) {
  std::vector<double> v(21, 10.0);
  v.insert(v.end(), 18, 10.5);
  v.push_back(tail);
  return v;
}

BenchmarkResult result_with(std::vector<double> time_us) {
  BenchmarkResult r;
  r.samples.time_us = std::move(time_us);
  return r;
}

TEST(gate_Jitter, RatioIsNearestRankP99OverP50) {
  EXPECT_DOUBLE_EQ(stats::p99_over_p50(repetitions_with_tail(14.0)), 1.4);
  EXPECT_DOUBLE_EQ(stats::p99_over_p50(repetitions_with_tail(12.0)), 1.2);
  EXPECT_EQ(stats::p99_over_p50(std::vector<double>{}), 0.0);
  // Fewer than kJitterMinRepetitions repetitions have no p99 of their own.
  EXPECT_FALSE(launch_jitter(result_with({10, 11, 12})));
}

TEST(gate_Jitter, LimitIsTheOneSessionBandOfTheBaselineRatios) {
  BaselineEntry e;
  e.bytes = 1 << 20;
  e.tolerance = 0.01;  // a floor below the band: the band decides
  e.time_jitter = MetricBaseline{};
  e.time_jitter->run_medians = kRatios;
  e.time_jitter->samples = kRatios;
  e.time_jitter->median = 1.22;
  TolerancePolicy policy = TolerancePolicy::defaults();
  policy.session_allowance = 0;

  const auto over = judge_jitter(result_with(repetitions_with_tail(14.0)), e, policy);
  ASSERT_TRUE(over);
  EXPECT_NEAR(over->centre, 1.217729862581879, 1e-12);
  EXPECT_NEAR(over->tolerance, 0.09220349799688743, 1e-9);
  EXPECT_NEAR(over->limit, 1.3414128165231725, 1e-9);
  EXPECT_DOUBLE_EQ(over->ratio, 1.4);
  EXPECT_TRUE(over->over);
  EXPECT_EQ(over->launches, 5u);

  const auto within = judge_jitter(result_with(repetitions_with_tail(12.0)), e, policy);
  ASSERT_TRUE(within);
  EXPECT_FALSE(within->over);

  // A calibrated band belongs to the judged metric: it does not narrow the tail's band.
  e.band = CalibratedBand{0.001, 10, 0.001, "2026-12-01T00:00:00Z"};
  EXPECT_NEAR(judge_jitter(result_with(repetitions_with_tail(14.0)), e, policy)->limit,
              1.3414128165231725, 1e-9);

  // Without the baseline's ratios (older files) nothing is judged.
  e.time_jitter.reset();
  EXPECT_FALSE(judge_jitter(result_with(repetitions_with_tail(14.0)), e, policy));
}

RunRecord run_of(const std::string& id, std::vector<double> time_us) {
  ResultSpec s;
  s.bytes = 1 << 20;
  s.time_us = std::move(time_us);
  RunSpec rs;
  rs.run_id = id;
  return testing::to_run(testing::make_run(rs, {testing::make_result(s)}));
}

// Five launches whose tails are kRatios (19 x 10.0 and one value 10 x ratio: p50 10, p99 the tail).
Baseline baseline_of_ratios() {
  std::vector<RunRecord> runs;
  for (std::size_t i = 0; i < kRatios.size(); ++i) {
    std::vector<double> reps(19, 10.0);
    reps.push_back(10.0 * kRatios[i]);
    runs.push_back(run_of("base-" + std::to_string(i), reps));
  }
  baseline::BaselineBuildOptions o;
  o.now = "2026-12-01T00:00:00Z";
  o.policy.session_allowance = 0;
  Baseline b = baseline::create_baseline(runs, o).baseline;
  b.source = "baselines/cpu-test-2c.json";
  return b;
}

TEST(gate_Jitter, BaselineKeepsOneRatioPerLaunchAndTheGateWarns) {
  const Baseline b = baseline_of_ratios();
  ASSERT_EQ(b.entries.size(), 1u);
  const BaselineEntry& e = b.entries.begin()->second;
  ASSERT_TRUE(e.time_jitter);
  ASSERT_EQ(e.time_jitter->run_medians.size(), kRatios.size());
  for (std::size_t i = 0; i < kRatios.size(); ++i)
    EXPECT_NEAR(e.time_jitter->run_medians[i], kRatios[i], 1e-12);

  // Same median, a tail of 1.5: JITTER, a warning that does not fail the gate.
  const verdict::Comparison tail = compare_run(run_of("now", repetitions_with_tail(15.0)), &b, {});
  ASSERT_EQ(tail.keys.size(), 1u);
  EXPECT_EQ(tail.keys[0].verdict, verdict::Verdict::jitter) << tail.keys[0].reason;
  EXPECT_NE(tail.keys[0].reason.find("p99/p50 1.500"), std::string::npos) << tail.keys[0].reason;
  EXPECT_TRUE(verdict::facts_of(verdict::Verdict::jitter).warns);
  EXPECT_FALSE(verdict::facts_of(verdict::Verdict::jitter).fails);
  EXPECT_EQ(tail.exit_code, ExitCode::pass);
  EXPECT_EQ(tail.warning_count(), 1u);

  // A tail inside the baseline's: PASS.
  const verdict::Comparison calm = compare_run(run_of("calm", repetitions_with_tail(12.0)), &b, {});
  EXPECT_EQ(calm.keys[0].verdict, verdict::Verdict::pass) << calm.keys[0].reason;
  ASSERT_TRUE(calm.keys[0].jitter);
  EXPECT_FALSE(calm.keys[0].jitter->over);

  // A regression with a tail stays a REGRESSION: JITTER never hides a failure.
  std::vector<double> slow = repetitions_with_tail(30.0);
  for (double& v : slow) v *= 2;
  const verdict::Comparison worse = compare_run(run_of("worse", slow), &b, {});
  EXPECT_EQ(worse.keys[0].verdict, verdict::Verdict::regression) << worse.keys[0].reason;
}

TEST(gate_Jitter, SaveAndLoadKeepTheRatios) {
  const Baseline b = baseline_of_ratios();
  const Baseline again = parse_baseline(baseline_to_json(b), "<round trip>");
  const BaselineEntry& e = again.entries.begin()->second;
  ASSERT_TRUE(e.time_jitter);
  EXPECT_EQ(e.time_jitter->run_medians, b.entries.begin()->second.time_jitter->run_medians);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
