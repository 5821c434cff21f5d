// The pairs' Hodges-Lehmann centre and its signed-rank interval (harness/stats/
// signed_rank_interval.hpp) against Wilcoxon's exact table, a hand-computed case, its coverage on
// simulated pairs, and the property it is there for: one outlier pair cannot drag the bound on the
// other side, where it drags Student's t interval's by its whole size.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "harness/stats/signed_rank_interval.hpp"
#include "harness/stats/statistics.hpp"

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

TEST(SignedRankInterval, NullDistributionMatchesWilcoxonsTable) {
  EXPECT_DOUBLE_EQ(stats::signed_rank_null_cdf(3, 0), 1.0 / 8);
  EXPECT_DOUBLE_EQ(stats::signed_rank_null_cdf(3, 6), 1.0);
  // n = 10: 25 of the 1024 rank subsets sum to at most 8, 33 to at most 9 (the table's
  // two-sided 5 % critical value is 8).
  EXPECT_NEAR(stats::signed_rank_null_cdf(10, 8), 25.0 / 1024, 1e-12);
  EXPECT_NEAR(stats::signed_rank_null_cdf(10, 9), 33.0 / 1024, 1e-12);
  // The narrowest interval misses with 2 x 2^-n: 6 pairs for 95 %, 9 for 99.5 % (a look's).
  EXPECT_EQ(stats::signed_rank_min_samples(0.95), 6u);
  EXPECT_EQ(stats::signed_rank_min_samples(0.995), 9u);
}

TEST(SignedRankInterval, HandComputedCase) {
  // d = {1, 2, 4}: Walsh averages 1, 1.5, 2, 2.5, 3, 4; median (2 + 2.5) / 2. With 3 values the
  // widest interval [1, 4] has confidence 1 - 2/8 = 75 %; 80 % does not exist.
  const std::vector<double> d{4, 1, 2};
  const stats::CentreEstimate c = stats::hodges_lehmann_centre(d, 0.75);
  EXPECT_DOUBLE_EQ(c.estimate, 2.25);
  ASSERT_TRUE(c.bounded);
  EXPECT_DOUBLE_EQ(c.low, 1);
  EXPECT_DOUBLE_EQ(c.high, 4);
  EXPECT_DOUBLE_EQ(c.confidence, 0.75);
  EXPECT_FALSE(stats::hodges_lehmann_centre(d, 0.80).bounded);
}

TEST(SignedRankInterval, OneOutlierPairDoesNotBlowItUp) {
  // Ten pairs within 1 % of each other and one at 2.3 x (a launch beside another job).
  std::vector<double> logs;
  for (int i = 0; i < 10; ++i) logs.push_back(std::log(1.0 + 0.002 * (i - 5)));
  logs.push_back(std::log(2.3));
  const stats::CentreEstimate c = stats::hodges_lehmann_centre(logs, 0.995);
  ASSERT_TRUE(c.bounded);
  double mean = 0;
  for (const double x : logs) mean += x;
  mean /= static_cast<double>(logs.size());
  double ss = 0;
  for (const double x : logs) ss += (x - mean) * (x - mean);
  const double n = static_cast<double>(logs.size());
  const double t_half =
      stats::student_t_quantile(1 - 0.005 / 2, n - 1) * std::sqrt(ss / (n - 1) / n);
  // The bound on the side away from the outlier stays at the ten with the rank interval, where
  // Student's t drags it down by the outlier's whole size: the TCP case, B/A 32.8 [1.02,
  // 428] over 8 pairs, was a FAIL held UNDECIDED by one pair that happened to be fast.
  EXPECT_GT(std::exp(c.low), 0.98);
  EXPECT_LT(std::exp(mean - t_half), 0.85);
}

TEST(SignedRankInterval, CoversTheCentreAsOftenAsItPromises) {
  // 2000 samples of 12 symmetric differences (heavy-tailed: Student t with 3 df): the 95 %
  // interval must contain the true centre in at least 94 % of them (its exact coverage is >= 95 %).
  std::mt19937 rng(7);
  std::student_t_distribution<double> noise(3);
  int covered = 0;
  const int trials = 2000;
  for (int t = 0; t < trials; ++t) {
    std::vector<double> d;
    for (int i = 0; i < 12; ++i) d.push_back(0.3 + 0.05 * noise(rng));
    const stats::CentreEstimate c = stats::hodges_lehmann_centre(d, 0.95);
    ASSERT_TRUE(c.bounded);
    covered += c.low <= 0.3 && 0.3 <= c.high ? 1 : 0;
  }
  EXPECT_GE(covered, trials * 94 / 100);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
