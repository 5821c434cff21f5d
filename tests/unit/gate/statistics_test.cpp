#include "harness/stats/statistics.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

TEST(gate_Median, OddEvenAndEmpty) {
  EXPECT_DOUBLE_EQ(stats::median(std::vector<double>{3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(stats::median(std::vector<double>{4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(stats::median(std::vector<double>{}), 0);
}

TEST(gate_RobustSpread, IgnoresOneOutlier) {
  // median 10, |dev| = {0,1,1,90} -> MAD 1 -> 1.4826 / 10
  EXPECT_NEAR(stats::robust_relative_spread(std::vector<double>{9, 10, 11, 100}), 0.14826 * 1.0,
              0.01);
  EXPECT_DOUBLE_EQ(stats::robust_relative_spread(std::vector<double>{5}), 0);
}

// n1 = 2, n2 = 3: C(5,2) = 10 equally likely arrangements; U counts 0..6 = 1,1,2,2,2,1,1.
TEST(gate_MannWhitney, ExactSmallCasesMatchHandCounts) {
  const auto all_lower =
      stats::mann_whitney_less(std::vector<double>{1, 2}, std::vector<double>{3, 4, 5});
  EXPECT_TRUE(all_lower.exact);
  EXPECT_DOUBLE_EQ(all_lower.u, 0);
  EXPECT_NEAR(all_lower.p_value, 0.1, 1e-12);

  const auto one_swap =
      stats::mann_whitney_less(std::vector<double>{1, 3}, std::vector<double>{2, 4, 5});
  EXPECT_DOUBLE_EQ(one_swap.u, 1);
  EXPECT_NEAR(one_swap.p_value, 0.2, 1e-12);

  const auto reversed =
      stats::mann_whitney_less(std::vector<double>{4, 5}, std::vector<double>{1, 2, 3});
  EXPECT_DOUBLE_EQ(reversed.u, 6);
  EXPECT_NEAR(reversed.p_value, 1.0, 1e-12);

  EXPECT_NEAR(stats::mann_whitney_exact_cdf(2, 3, 3), 0.6, 1e-12);  // (1+1+2+2)/10
  EXPECT_NEAR(stats::mann_whitney_exact_cdf(3, 2, 3), 0.6, 1e-12);  // symmetric in the sizes
}

TEST(gate_MannWhitney, FiveVersusFifteenAllWorseIsOneInC20_5) {
  std::vector<double> now{1, 2, 3, 4, 5};
  std::vector<double> base;
  for (int i = 0; i < 15; ++i) base.push_back(10 + i);
  const auto t = stats::mann_whitney_less(now, base);
  EXPECT_TRUE(t.exact);
  EXPECT_NEAR(t.p_value, 1.0 / 15504.0, 1e-12);  // C(20, 5) = 15504
}

// Ties: a = {1, 2}, b = {2, 3}. Mid-ranks 1, 2.5 | 2.5, 4 -> U = 0.5. Tie-corrected variance
// 4/12 * (5 - 6/12) = 1.5; z = (0.5 + 0.5 - 2)/sqrt(1.5) = -0.8165 -> p = 0.2071.
TEST(gate_MannWhitney, TiesUseCorrectedNormalApproximation) {
  const auto t = stats::mann_whitney_less(std::vector<double>{1, 2}, std::vector<double>{2, 3});
  EXPECT_FALSE(t.exact);
  EXPECT_DOUBLE_EQ(t.u, 0.5);
  EXPECT_NEAR(t.p_value, 0.2071, 1e-3);
}

TEST(gate_MannWhitney, AllEqualGivesNoEvidence) {
  const auto t = stats::mann_whitney_less(std::vector<double>{1, 1, 1}, std::vector<double>{1, 1});
  EXPECT_DOUBLE_EQ(t.p_value, 1.0);
}

TEST(gate_MannWhitney, ExactAndApproximationAgreeForModerateSizes) {
  std::vector<double> a;
  std::vector<double> b;
  for (int i = 0; i < 20; ++i) {
    a.push_back(i * 2.0);        // 0, 2, ..., 38
    b.push_back(i * 2.0 + 7.0);  // 7, 9, ..., 45 (no ties with a)
  }
  const auto exact = stats::mann_whitney_less(a, b);
  ASSERT_TRUE(exact.exact);
  // Normal approximation by hand: U = sum over a of #b below; mean 200, var 20*20*41/12.
  const double z = (exact.u + 0.5 - 200.0) / std::sqrt(20.0 * 20.0 * 41.0 / 12.0);
  EXPECT_NEAR(exact.p_value, 0.5 * std::erfc(-z / std::sqrt(2.0)), 0.01);
}

TEST(gate_MannWhitney, EmptySampleIsNotEvidence) {
  EXPECT_DOUBLE_EQ(
      stats::mann_whitney_less(std::vector<double>{}, std::vector<double>{1, 2}).p_value, 1.0);
}

TEST(gate_MultipleComparison, HolmByHand) {
  // sorted 0.01 (x3 = 0.03), 0.03 (x2 = 0.06), 0.04 (x1 = 0.04 -> monotone 0.06)
  const auto adj = stats::holm_adjust(std::vector<double>{0.01, 0.04, 0.03});
  ASSERT_EQ(adj.size(), 3u);
  EXPECT_NEAR(adj[0], 0.03, 1e-12);
  EXPECT_NEAR(adj[1], 0.06, 1e-12);
  EXPECT_NEAR(adj[2], 0.06, 1e-12);
}

TEST(gate_MultipleComparison, BenjaminiHochbergByHand) {
  // sorted 0.01, 0.03, 0.04: 0.04*3/3 = 0.04; min(0.03*3/2, 0.04) = 0.04; min(0.01*3, 0.04) = 0.03
  const auto adj = stats::benjamini_hochberg_adjust(std::vector<double>{0.01, 0.04, 0.03});
  EXPECT_NEAR(adj[0], 0.03, 1e-12);
  EXPECT_NEAR(adj[1], 0.04, 1e-12);
  EXPECT_NEAR(adj[2], 0.04, 1e-12);
}

TEST(gate_MultipleComparison, CappedAtOneAndEmptyOk) {
  EXPECT_DOUBLE_EQ(stats::holm_adjust(std::vector<double>{0.6, 0.7})[0], 1.0);
  EXPECT_TRUE(stats::benjamini_hochberg_adjust(std::vector<double>{}).empty());
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
