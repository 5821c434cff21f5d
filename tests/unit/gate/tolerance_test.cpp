#include "harness/gate/tolerance.hpp"

#include <gtest/gtest.h>

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

TEST(gate_SizeClass, DefaultBoundariesAreBinary) {
  const TolerancePolicy p = TolerancePolicy::defaults();
  EXPECT_EQ(size_class_for(p, 0).name, "small");
  EXPECT_EQ(size_class_for(p, 65536).name, "small");  // latency-bound on NVLink (P15)
  EXPECT_EQ(size_class_for(p, (1u << 20) - 1).name, "small");
  EXPECT_EQ(size_class_for(p, 1u << 20).name, "medium");  // 1 MiB starts being bandwidth-judged
  EXPECT_EQ(size_class_for(p, (16u << 20) - 1).name, "medium");
  EXPECT_EQ(size_class_for(p, 16u << 20).name, "large");
  EXPECT_EQ(size_class_for(p, 1ull << 40).name, "large");
  EXPECT_TRUE(size_class_for(p, 1024).judged_on_latency);
  EXPECT_GT(size_class_for(p, 1024).tolerance, size_class_for(p, 1u << 30).tolerance);
  EXPECT_LT(size_class_for(p, 1u << 30).tolerance, 0.05);  // a 5 % regression is catchable
}

BaselineEntry entry_of(std::uint64_t bytes, std::vector<double> samples,
                       std::vector<double> run_medians) {
  BaselineEntry e;
  e.bytes = bytes;
  e.time_us.samples = std::move(samples);
  e.time_us.run_medians = std::move(run_medians);
  e.time_us.median = 100;
  return e;
}

TEST(gate_Tolerance, StaticWhenSamplesAreTight) {
  TolerancePolicy p = TolerancePolicy::defaults();
  p.session_allowance = 0;  // one session: the one-level band (sessions: variance_components_test)
  const BaselineEntry e = entry_of(1u << 30, {100, 100.1, 99.9, 100}, {100, 100, 100});
  const auto d = tolerance_for(p, e, e.time_us);
  EXPECT_DOUBLE_EQ(d.tolerance, 0.03);
}

TEST(gate_Tolerance, WidensWithLaunchToLaunchSpread) {
  TolerancePolicy p = TolerancePolicy::defaults();
  p.session_allowance = 0;  // one session: the one-level band (sessions: variance_components_test)
  // Launch medians 96, 100, 104 (SciPy: sd of logs 0.040024, t_{2,0.99} = 6.9646,
  // 1 - exp(-t s sqrt(1 + 1/3)) = 0.27521): tight repetitions do not narrow it.
  const BaselineEntry e = entry_of(1u << 30, {99.9, 100, 100.1, 100}, {96, 100, 104});
  const auto d = tolerance_for(p, e, e.time_us);
  EXPECT_NEAR(d.spread, 0.04002402326223362, 1e-12);
  EXPECT_NEAR(d.tolerance, 0.2752092527284792, 1e-9);
}

TEST(gate_Tolerance, OverriddenPerKeyAsAFloor) {
  const TolerancePolicy p = TolerancePolicy::defaults();
  BaselineEntry e = entry_of(1u << 30, {100, 100}, {100, 100});
  e.tolerance = 0.2;
  EXPECT_DOUBLE_EQ(tolerance_for(p, e, e.time_us).tolerance, 0.2);
}

TEST(gate_DefaultMetric, LatencyForSmallBusbwForCollectivesAlgbwOtherwise) {
  const TolerancePolicy p = TolerancePolicy::defaults();
  EXPECT_EQ(default_metric(p, 1024, true, true), verdict::Metric::time_us);
  EXPECT_EQ(default_metric(p, 1u << 20, true, true), verdict::Metric::busbw_GBps);
  EXPECT_EQ(default_metric(p, 1u << 20, false, true), verdict::Metric::algbw_GBps);
  EXPECT_EQ(default_metric(p, 1u << 20, false, false), verdict::Metric::time_us);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
