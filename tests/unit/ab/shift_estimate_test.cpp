// Hodges-Lehmann shift/ratio and Moses' interval against cases computed by hand from the exact
// Mann-Whitney distribution, the normal approximation against the exact order statistic, and the
// coverage the interval promises on simulated samples.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "harness/stats/shift_estimate.hpp"
#include "harness/stats/statistics.hpp"

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

// x = {1,2,3}, y = {2,4,6,8}: the 12 differences y - x sorted are
// -1 0 1 1 2 3 3 4 5 5 6 7; their median is 3. For m = 3, n = 4 the null distribution of U has
// counts 1,1,2,3,4,4,5,4,4,3,2,1,1 over C(7,3) = 35, so P(U<=0) = 1/35, P(U<=1) = 2/35, P(U<=2) =
// 4/35.
const std::vector<double> kX{1, 2, 3};
const std::vector<double> kY{2, 4, 6, 8};

TEST(ShiftEstimate, HandComputedEightyPercentInterval) {
  // Tail 0.10: P(U<=1) = 0.057 fits, P(U<=2) = 0.114 does not -> k = 2: [D(2), D(11)] = [0, 6].
  const stats::ShiftEstimate s = stats::hodges_lehmann_shift(kX, kY, 0.80);
  EXPECT_DOUBLE_EQ(s.estimate, 3);
  ASSERT_TRUE(s.bounded);
  EXPECT_EQ(s.order, 2u);
  EXPECT_DOUBLE_EQ(s.low, 0);
  EXPECT_DOUBLE_EQ(s.high, 6);
  EXPECT_NEAR(s.confidence, 1 - 2 * 2.0 / 35, 1e-12);
}

TEST(ShiftEstimate, HandComputedNinetyPercentInterval) {
  // Tail 0.05: P(U<=0) = 0.029 fits, P(U<=1) = 0.057 does not -> k = 1: the extremes [-1, 7].
  const stats::ShiftEstimate s = stats::hodges_lehmann_shift(kX, kY, 0.90);
  ASSERT_TRUE(s.bounded);
  EXPECT_EQ(s.order, 1u);
  EXPECT_DOUBLE_EQ(s.low, -1);
  EXPECT_DOUBLE_EQ(s.high, 7);
  EXPECT_NEAR(s.confidence, 1 - 2.0 / 35, 1e-12);
}

TEST(ShiftEstimate, TooFewSamplesForTheConfidenceGiveAnUnboundedInterval) {
  // Tail 0.025 < P(U<=0) = 1/35: not even the extremes reach 95 %.
  const stats::ShiftEstimate s = stats::hodges_lehmann_shift(kX, kY, 0.95);
  EXPECT_FALSE(s.bounded);
  EXPECT_DOUBLE_EQ(s.estimate, 3);
  EXPECT_TRUE(std::isinf(s.low) && s.low < 0);
  EXPECT_TRUE(std::isinf(s.high) && s.high > 0);
}

TEST(ShiftEstimate, RatioIsTheShiftOfLogarithms) {
  // y/x over {1,2,4} x {2,4,8,16}: .5 1 1 2 2 2 4 4 4 8 8 16; the log-median is between 2 and 4,
  // i.e. sqrt(8); the 80 % interval is again [D(2), D(11)] = [1, 8].
  const auto r = stats::hodges_lehmann_ratio_interval(std::vector<double>{1, 2, 4},
                                                      std::vector<double>{2, 4, 8, 16}, 0.80);
  ASSERT_TRUE(r.has_value());
  EXPECT_NEAR(r->estimate, std::sqrt(8.0), 1e-12);
  ASSERT_TRUE(r->bounded);
  EXPECT_NEAR(r->low, 1, 1e-12);
  EXPECT_NEAR(r->high, 8, 1e-12);
}

TEST(ShiftEstimate, RatioOfUnboundedIntervalSpansZeroToInfinity) {
  const auto r = stats::hodges_lehmann_ratio_interval(std::vector<double>{1, 2},
                                                      std::vector<double>{2, 4}, 0.95);
  ASSERT_TRUE(r.has_value());
  EXPECT_FALSE(r->bounded);
  EXPECT_EQ(r->low, 0);
  EXPECT_TRUE(std::isinf(r->high));
}

TEST(ShiftEstimate, RatioRefusesNonPositiveOrEmptySamples) {
  EXPECT_FALSE(stats::hodges_lehmann_ratio_interval(std::vector<double>{1, 0},
                                                    std::vector<double>{2, 3}, 0.9)
                   .has_value());
  EXPECT_FALSE(stats::hodges_lehmann_ratio_interval(std::vector<double>{1, 2},
                                                    std::vector<double>{-1, 3}, 0.9)
                   .has_value());
  EXPECT_FALSE(
      stats::hodges_lehmann_ratio_interval(std::vector<double>{}, std::vector<double>{1}, 0.9)
          .has_value());
}

TEST(ShiftEstimate, ExactShiftOfShiftedCopiesIsFoundWithASymmetricInterval) {
  std::vector<double> x;
  std::vector<double> y;
  for (int i = 0; i < 10; ++i) {
    x.push_back(i);
    y.push_back(i + 5);
  }
  const stats::ShiftEstimate s = stats::hodges_lehmann_shift(x, y, 0.95);
  EXPECT_DOUBLE_EQ(s.estimate, 5);
  ASSERT_TRUE(s.bounded);
  EXPECT_LT(s.low, 5);
  EXPECT_GT(s.high, 5);
  EXPECT_DOUBLE_EQ(5 - s.low, s.high - 5);
  EXPECT_GE(s.confidence, 0.95);
}

TEST(ShiftEstimate, NormalApproximationPicksTheExactOrderStatisticWithinOne) {
  // 60 x 60 = 3600 pairs is beyond the exact tables the interval uses; compare with the exact
  // distribution computed directly.
  const std::size_t m = 60;
  const double tail = 0.025;
  std::size_t exact_k = 0;
  for (std::size_t k = 1; 2 * k <= m * m + 1; ++k) {
    if (stats::mann_whitney_exact_cdf(m, m, static_cast<double>(k - 1)) > tail) break;
    exact_k = k;
  }
  std::vector<double> x;
  std::vector<double> y;
  for (std::size_t i = 0; i < m; ++i) {
    x.push_back(static_cast<double>(i));
    y.push_back(static_cast<double>(i) + 0.5);
  }
  const stats::ShiftEstimate s = stats::hodges_lehmann_shift(x, y, 0.95);
  ASSERT_TRUE(s.bounded);
  EXPECT_NEAR(static_cast<double>(s.order), static_cast<double>(exact_k), 1.0);
  EXPECT_NEAR(s.confidence, 0.95, 0.01);
}

TEST(ShiftEstimate, IntervalCoversTheTrueRatioAsOftenAsItPromises) {
  // 2000 simulated A/B comparisons with a true ratio of 1.2 (lognormal noise, 8 + 8 samples).
  std::mt19937 rng(12345);
  std::normal_distribution<double> noise(0.0, 0.1);
  int covered = 0;
  const int trials = 2000;
  for (int t = 0; t < trials; ++t) {
    std::vector<double> a;
    std::vector<double> b;
    for (int i = 0; i < 8; ++i) {
      a.push_back(std::exp(noise(rng)));
      b.push_back(1.2 * std::exp(noise(rng)));
    }
    const auto r = stats::hodges_lehmann_ratio_interval(a, b, 0.90);
    ASSERT_TRUE(r && r->bounded);
    covered += r->low <= 1.2 && 1.2 <= r->high;
  }
  const double coverage = static_cast<double>(covered) / trials;
  EXPECT_GE(coverage, 0.88);  // promised >= 0.90 (discrete: slightly more), minus simulation error
  EXPECT_LE(coverage, 0.95);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
