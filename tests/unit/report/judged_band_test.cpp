// The judged band is the drawn band: the limits the HTML report draws for a key are the ones its
// verdict was decided with. A run just inside the drawn line passes, one just outside fails, on a
// real baseline built from runs and real compare_run judgements.
#include <gtest/gtest.h>

#include "harness/baseline/baseline_builder.hpp"
#include "harness/gate/compare.hpp"
#include "harness/report/html_figures.hpp"
#include "tests/unit/gate/gate_fixtures.hpp"

namespace fabricgate::report {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using verdict::Verdict;

RunRecord run_at(const std::string& id, std::uint64_t bytes, std::vector<double> times) {
  testing::ResultSpec s;
  s.bytes = bytes;
  s.time_us = std::move(times);
  testing::RunSpec rs;
  rs.run_id = id;
  return testing::to_run(testing::make_run(rs, {testing::make_result(s)}));
}

Baseline baseline_of(std::uint64_t bytes) {
  std::vector<RunRecord> runs;
  for (unsigned i = 0; i < 5; ++i)
    runs.push_back(run_at("b" + std::to_string(i), bytes, testing::noisy(40, 0.01, 5, i + 1)));
  baseline::BaselineBuildOptions o;
  o.now = "2026-12-01T00:00:00Z";
  // One sitting of synthetic launches: the drawn band is the subject here, so no between-sitting
  // term (with the default allowance one sitting gates nothing: UNMEASURED).
  o.policy.session_allowance = 0;
  return baseline::create_baseline(runs, o).baseline;
}

const verdict::KeyComparison& only_key(const verdict::Comparison& c) { return c.keys.at(0); }

// Time is judged here (8 KiB is latency-bound, P15): the worse edge is the upper limit.
TEST(report_JudgedBand, JustInsideTheDrawnLinePassesJustOutsideFails) {
  const std::uint64_t bytes = 8192;
  const Baseline b = baseline_of(bytes);
  const verdict::Comparison first = gate::compare_run(run_at("now", bytes, {40, 40, 40}), &b, {});
  const verdict::KeyComparison& k = only_key(first);
  ASSERT_TRUE(k.judgement);
  ASSERT_EQ(k.judgement->metric, verdict::Metric::time_us);
  const auto drawn = judged_band(k, verdict::Metric::time_us);
  ASSERT_TRUE(drawn);
  EXPECT_DOUBLE_EQ(drawn->low, k.judgement->lower_limit);
  EXPECT_DOUBLE_EQ(drawn->high, k.judgement->upper_limit);
  EXPECT_DOUBLE_EQ(drawn->high * (1 - k.judgement->tolerance), k.judgement->baseline_median);
  EXPECT_FALSE(judged_band(k, verdict::Metric::algbw_GBps)) << "no band on a metric not judged";

  const double inside = drawn->high * 0.999;
  const double outside = drawn->high * 1.001;
  EXPECT_EQ(
      only_key(gate::compare_run(run_at("in", bytes, {inside, inside, inside}), &b, {})).verdict,
      Verdict::pass);
  EXPECT_EQ(only_key(gate::compare_run(run_at("out", bytes, {outside, outside, outside}), &b, {}))
                .verdict,
            Verdict::regression);
  // The better edge is drawn too, and crossing it is an improvement.
  const double faster = drawn->low * 0.999;
  EXPECT_EQ(
      only_key(gate::compare_run(run_at("fast", bytes, {faster, faster, faster}), &b, {})).verdict,
      Verdict::improvement);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::report
