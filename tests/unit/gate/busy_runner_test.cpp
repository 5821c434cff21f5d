// "Runner busy, not judged" (harness/gate/judge_run.hpp, step 4) on hand-made comparisons: only a
// failure made of verdicts that load produces by itself, on a launch whose host had a task
// waiting for a CPU more than the threshold, becomes exit 3; everything else keeps its exit code.
#include <gtest/gtest.h>

#include <string>

#include "harness/gate/judge_run.hpp"

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

verdict::KeyComparison key(const std::string& name, verdict::Verdict v) {
  verdict::KeyComparison k;
  k.key = name;
  k.verdict = v;
  return k;
}

verdict::Comparison failing(std::optional<double> pressure,
                            verdict::Verdict second = verdict::Verdict::pass) {
  verdict::Comparison c;
  c.has_baseline = true;
  c.keys = {
      key("coll/mpi/all_reduce/float32/sum/bytes:64/ranks:2/oop", verdict::Verdict::regression),
      key("coll/mpi/all_gather/float32/bytes:64/ranks:2/oop", second)};
  c.exit_code = ExitCode::gate_failure;
  c.host_cpu_pressure = pressure;
  c.quietest_cpu_pressure = pressure;  // one launch
  return c;
}

TEST(gate_BusyRunner, ARegressionOnABusyHostIsNotJudged) {
  verdict::Comparison c = failing(0.62);
  mark_busy_runner(c, 0.25);
  EXPECT_TRUE(c.runner_busy);
  EXPECT_EQ(c.exit_code, ExitCode::infra_failure);
  EXPECT_EQ(c.keys[0].verdict, verdict::Verdict::regression);  // still shown
  EXPECT_EQ(c.headline().rfind("RUNNER BUSY, NOT JUDGED: 1 of 2 keys look worse", 0), 0u)
      << c.headline();
  EXPECT_NE(c.headline().find("62 % of the launch (over 25 %)"), std::string::npos) << c.headline();
}

TEST(gate_BusyRunner, AQuietHostOrOneWithoutPressureFiguresStillFails) {
  for (const std::optional<double> p :
       {std::optional<double>(0.25), std::optional<double>(0.03), std::optional<double>()}) {
    verdict::Comparison c = failing(p);
    mark_busy_runner(c, 0.25);
    EXPECT_FALSE(c.runner_busy);
    EXPECT_EQ(c.exit_code, ExitCode::gate_failure);
    EXPECT_EQ(c.headline().rfind("FAIL:", 0), 0u);
  }
}

TEST(gate_BusyRunner, FailuresLoadCannotCauseStillFailOnABusyHost) {
  for (const verdict::Verdict v :
       {verdict::Verdict::wrong_results, verdict::Verdict::transport_changed,
        verdict::Verdict::algo_changed, verdict::Verdict::invalid, verdict::Verdict::missing}) {
    verdict::Comparison c = failing(0.9, v);
    mark_busy_runner(c, 0.25);
    EXPECT_FALSE(c.runner_busy) << verdict::verdict_name(v);
    EXPECT_EQ(c.exit_code, ExitCode::gate_failure) << verdict::verdict_name(v);
  }
  for (const verdict::Verdict v :
       {verdict::Verdict::dip, verdict::Verdict::drift, verdict::Verdict::below_roofline}) {
    verdict::Comparison c = failing(0.9, v);
    mark_busy_runner(c, 0.25);
    EXPECT_TRUE(c.runner_busy) << verdict::verdict_name(v);
  }
}

TEST(gate_BusyRunner, AFailingClusterFindingStillFails) {
  verdict::Comparison c = failing(0.9);
  verdict::ClusterFinding f;
  f.id = "STRAGGLER";
  f.fails_gate = true;
  c.cluster_findings.push_back(f);
  mark_busy_runner(c, 0.25);
  EXPECT_FALSE(c.runner_busy);
  EXPECT_EQ(c.exit_code, ExitCode::gate_failure);
}

TEST(gate_BusyRunner, APassStaysAPass) {
  verdict::Comparison c;
  c.has_baseline = true;
  c.keys = {key("k", verdict::Verdict::pass)};
  c.host_cpu_pressure = 0.95;
  mark_busy_runner(c, 0.25);
  EXPECT_FALSE(c.runner_busy);
  EXPECT_EQ(c.exit_code, ExitCode::pass);
}

// The run reports its busiest launch, but a failure is excused only when every judged launch was
// busy: a busy confirmation of a regression a quiet first launch measured is still a failure
// (issue 52, round four high 6), and so is a busy first launch that a quiet confirmation upheld.
TEST(gate_BusyRunner, OnlyEveryLaunchBusyExcusesAFailure) {
  const auto merged_of = [](double first_p, double later_p) {
    verdict::Comparison first = failing(first_p);
    verdict::Comparison later = failing(later_p);
    verdict::Comparison merged = apply_confirmations(
        first, {JudgedLaunch{later, "confirm"}, JudgedLaunch{std::nullopt, "none"}},
        {first.keys[0].key}, 16);
    mark_busy_runner(merged, 0.25);
    return merged;
  };
  const verdict::Comparison quiet_first = merged_of(0.02, 0.7);
  ASSERT_TRUE(quiet_first.host_cpu_pressure);
  EXPECT_DOUBLE_EQ(*quiet_first.host_cpu_pressure, 0.7);
  EXPECT_FALSE(quiet_first.runner_busy);
  EXPECT_EQ(quiet_first.exit_code, ExitCode::gate_failure);
  const verdict::Comparison quiet_later = merged_of(0.7, 0.02);
  EXPECT_FALSE(quiet_later.runner_busy);
  EXPECT_EQ(quiet_later.exit_code, ExitCode::gate_failure);
  const verdict::Comparison both_busy = merged_of(0.6, 0.7);
  EXPECT_TRUE(both_busy.runner_busy);
  EXPECT_EQ(both_busy.exit_code, ExitCode::infra_failure);
  // A confirmation whose load was not measured excuses nothing.
  verdict::Comparison first = failing(0.6);
  verdict::Comparison unknown = failing(std::nullopt);
  verdict::Comparison merged =
      apply_confirmations(first, {JudgedLaunch{unknown, "confirm"}}, {first.keys[0].key}, 16);
  mark_busy_runner(merged, 0.25);
  EXPECT_FALSE(merged.runner_busy);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
