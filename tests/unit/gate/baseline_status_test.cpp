// baseline status: the launches a NOISY key needs agree with the gate's own band formula, a
// spread no launch count can fix is said to be so, and the summary and create's warning count
// what a baseline gates.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "harness/baseline/baseline_status.hpp"
#include "harness/gate/launch_band.hpp"

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

// n launch medians around 100 whose log values have sample standard deviation exactly `sd`.
std::vector<double> medians_with_spread(std::size_t n, double sd) {
  std::vector<double> z;
  for (std::size_t i = 0; i < n; ++i) z.push_back(static_cast<double>(i));
  double mean = 0;
  for (const double v : z) mean += v / static_cast<double>(n);
  double ss = 0;
  for (const double v : z) ss += (v - mean) * (v - mean);
  const double scale = sd / std::sqrt(ss / static_cast<double>(n - 1));
  std::vector<double> out;
  for (const double v : z) out.push_back(100 * std::exp((v - mean) * scale));
  return out;
}

TEST(gate_BaselineStatus, LaunchesNeededAgreeWithTheGatesBand) {
  const TolerancePolicy p = TolerancePolicy::defaults();
  for (const double sd : {0.05, 0.08, 0.1}) {
    const std::optional<std::size_t> n =
        baseline::launches_to_gate(sd, p.band_alpha, p.max_band, 2);
    ASSERT_TRUE(n.has_value()) << sd;
    EXPECT_LE(prediction_band(medians_with_spread(*n, sd), p.band_alpha).half_width, p.max_band)
        << sd << " with " << *n;
    EXPECT_GT(prediction_band(medians_with_spread(*n - 1, sd), p.band_alpha).half_width, p.max_band)
        << sd << " with " << *n - 1;
  }
}

TEST(gate_BaselineStatus, TooWideASpreadIsNeverGateable) {
  const TolerancePolicy p = TolerancePolicy::defaults();
  // z_{0.99} * 0.5 = 1.16 in log space, far beyond -log(1 - 0.25) = 0.29.
  EXPECT_FALSE(baseline::launches_to_gate(0.5, p.band_alpha, p.max_band, 2).has_value());
}

BaselineEntry entry(const std::string& key, std::uint64_t bytes, std::vector<double> medians) {
  BaselineEntry e;
  e.key = key;
  e.bytes = bytes;
  e.metric = "time_us";
  e.time_us.run_medians = std::move(medians);
  e.time_us.median = e.time_us.run_medians.front();
  return e;
}

TEST(gate_BaselineStatus, CountsWhatTheBaselineGatesAndWarnsWhenMostKeysGateNothing) {
  Baseline b;
  b.source = "baselines/p/s.json";
  b.platform = "p";
  b.policy = TolerancePolicy::defaults();
  b.entries["a"] = entry("a", 1 << 20, medians_with_spread(3, 0.08));   // NOISY at 3 launches
  b.entries["b"] = entry("b", 1 << 20, medians_with_spread(3, 0.09));   // NOISY
  b.entries["c"] = entry("c", 1 << 20, medians_with_spread(3, 0.001));  // gateable
  b.entries["d"] = entry("d", 64, medians_with_spread(2, 0.001));       // short of min_runs
  const baseline::BaselineStatus s = baseline::baseline_status(b);
  EXPECT_EQ(s.keys.size(), 4u);
  EXPECT_EQ(s.noisy, 2u);
  EXPECT_EQ(s.gateable, 1u);
  EXPECT_EQ(s.too_few, 1u);
  const auto need_a = baseline::launches_to_gate(0.08, b.policy.band_alpha, b.policy.max_band, 4);
  ASSERT_TRUE(need_a && s.launches_for_most_noisy);
  EXPECT_EQ(*s.launches_for_most_noisy, *need_a) << "half of the two NOISY keys: the easier one";
  EXPECT_EQ(s.keys[0].launches_to_gate, need_a);
  EXPECT_EQ(s.keys[3].missing_launches, 1u);
  const std::string warning = baseline::baseline_gateability_warning(s);
  EXPECT_NE(warning.find("gates only 1 of 4 keys: 2 NOISY"), std::string::npos) << warning;
  EXPECT_NE(warning.find("With " + std::to_string(*need_a) + " launches per key"),
            std::string::npos)
      << warning;
  const std::string text = baseline::render_baseline_status(s, false);
  EXPECT_NE(text.find("a  launches 3"), std::string::npos) << text;
  EXPECT_EQ(text.find("c  launches 3"), std::string::npos) << "gateable keys are not listed";
  EXPECT_NE(text.find("medium"), std::string::npos) << text;

  // Mostly gateable: no warning.
  b.entries.erase("a");
  b.entries.erase("d");
  b.entries["e"] = entry("e", 1 << 20, medians_with_spread(5, 0.002));
  EXPECT_EQ(baseline::baseline_gateability_warning(baseline::baseline_status(b)), "");
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
