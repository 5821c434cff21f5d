// The A/B gate's interval of B/A for one key (harness/ab/ab_interval.hpp): which interval the pairs
// get (Student's t until the signed-rank interval can reach the confidence, then that one, by the
// number of pairs alone), what one outlier pair does to each, and the hull and performance views.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "harness/ab/ab_interval.hpp"
#include "harness/stats/signed_rank_interval.hpp"
#include "harness/stats/statistics.hpp"

namespace fabricgate::ab {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

// n pair ratios around 1 (a quiet A/A), then `outlier` as the last pair when it is not 0.
std::vector<double> quiet_pairs(std::size_t n, double outlier = 0) {
  std::vector<double> r;
  for (std::size_t i = 0; i < n; ++i) r.push_back(1 + 0.004 * (static_cast<double>(i % 5) - 2));
  if (outlier > 0) r.back() = outlier;
  return r;
}

TEST(AbInterval, TheNumberOfPairsAloneChoosesTheInterval) {
  const double confidence = 0.995;
  const std::size_t rank_from = stats::signed_rank_min_samples(confidence);  // 9
  EXPECT_FALSE(paired_interval(quiet_pairs(1), confidence).bounded);  // one pair: no interval
  const AbInterval t = paired_interval(quiet_pairs(rank_from - 1), confidence);
  EXPECT_TRUE(t.bounded);
  EXPECT_FALSE(t.rank_based);
  const AbInterval rank = paired_interval(quiet_pairs(rank_from), confidence);
  EXPECT_TRUE(rank.bounded);
  EXPECT_TRUE(rank.rank_based);
  EXPECT_LE(rank.low, 1.0);
  EXPECT_GE(rank.high, 1.0);
}

// A pair measured beside another job (B/A 0.5) among 11 quiet ones. Student's t on the same logs
// widens both bounds by the outlier's size; the signed-rank interval is dragged on the outlier's
// side only (its lowest Walsh averages all hold the outlier: that side reaches lower than t's),
// and its other bound stays where the quiet pairs put it.
TEST(AbInterval, OneOutlierPairDragsOnlyItsOwnSideOfTheRankInterval) {
  const std::vector<double> pairs = quiet_pairs(12, 0.5);
  const AbInterval rank = paired_interval(pairs, 0.995);
  ASSERT_TRUE(rank.rank_based);
  EXPECT_LT(rank.high, 1.01) << rank.high;
  const AbInterval quiet = paired_interval(quiet_pairs(12), 0.995);
  EXPECT_NEAR(rank.high, quiet.high, 0.005);
  // The same logs under Student's t (what the first looks use).
  const PairLogs p = pair_logs(pairs);
  const double n = static_cast<double>(p.logs.size());
  const double half =
      stats::student_t_quantile(1 - 0.005 / 2, n - 1) * std::sqrt(p.ss / (n - 1) / n);
  EXPECT_GT(std::exp(p.mean + half), 1.1);  // an A/A whose upper bound says B may be 10 % better
}

TEST(AbInterval, PairLogsSkipRatiosThatAreNoMeasurement) {
  const PairLogs p = pair_logs({1.0, 0.0, -2.0, std::nan(""), INFINITY, std::exp(1.0)});
  ASSERT_EQ(p.logs.size(), 2u);
  EXPECT_DOUBLE_EQ(p.mean, 0.5);
  EXPECT_DOUBLE_EQ(p.ss, 0.5);
}

TEST(AbInterval, TheHullCoversBothAndIsUnboundedWhenEitherIs) {
  const AbInterval pooled{1.0, 0.98, 1.01, true, 0.99};
  const AbInterval pairs{1.0, 0.97, 1.03, true, 0.995};
  const AbInterval h = hull(pooled, pairs);
  EXPECT_TRUE(h.bounded);
  EXPECT_DOUBLE_EQ(h.low, 0.97);
  EXPECT_DOUBLE_EQ(h.high, 1.03);
  EXPECT_DOUBLE_EQ(h.confidence, 0.99);
  EXPECT_FALSE(hull(pooled, AbInterval{}).bounded);
}

TEST(AbInterval, PerformanceOfATimeIsItsInverse) {
  const AbInterval time_ratio{1.25, 1.0, 2.0, true, 0.99};  // B takes longer
  const AbInterval p = performance_of(time_ratio, false);
  EXPECT_DOUBLE_EQ(p.estimate, 0.8);
  EXPECT_DOUBLE_EQ(p.low, 0.5);
  EXPECT_DOUBLE_EQ(p.high, 1.0);
  EXPECT_DOUBLE_EQ(performance_of(time_ratio, true).estimate, 1.25);  // bandwidth: as it is
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::ab
