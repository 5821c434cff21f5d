// The fast split statistic (sorted values + Fenwick tree, energy_split.hpp) against the plain
// O(n^2) formula on random series: the same best split, the same Q up to rounding, and the same
// change points with the same p-values from find_change_points. Series: normal noise at CPU and
// GPU levels, steps, heavy outliers, a few discrete levels (GPU runs that sit on steps), ties.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "harness/stats/change_points.hpp"
#include "harness/stats/energy_split.hpp"
#include "tests/unit/gate/seeded_random.hpp"

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using Random = fabricgate::testing::SeededRandom;

// One of five shapes, chosen by the seed; length 6..300.
std::vector<double> random_series(std::uint64_t seed) {
  Random r(seed);
  const std::size_t n = 6 + r.below(295);
  const int shape = static_cast<int>(seed % 5);
  const double cv = shape == 0 ? 0.08 : 0.01;
  const std::size_t step_at = r.below(n);
  const double step = (r.uniform() - 0.5) * 0.4;
  std::vector<double> v;
  for (std::size_t i = 0; i < n; ++i) {
    double x = 100 * (1 + cv * r.normal());
    if (shape == 2 && r.uniform() < 0.1) x *= 0.6;                     // heavy outliers
    if (shape == 3) x = 100 + 0.25 * static_cast<double>(r.below(3));  // three discrete levels
    if (shape == 4) x = std::round(x * 4) / 4;                         // quantised: many ties
    if (shape != 1 && i >= step_at) x *= 1 + step;
    v.push_back(x);
  }
  return v;
}

TEST(EnergySplit, SortedStatisticGivesThePlainFormulasBestSplitOn2000RandomSeries) {
  for (std::uint64_t seed = 1; seed <= 2000; ++seed) {
    const std::vector<double> v = random_series(seed);
    for (const std::size_t min_segment : {std::size_t{1}, std::size_t{3}}) {
      const stats::BestSplit plain = stats::best_split_quadratic(v, min_segment);
      stats::SegmentEnergy energy(v);
      const stats::BestSplit fast = energy.best_split(energy.ranks(), min_segment);
      ASSERT_NEAR(fast.q, plain.q, 1e-9 * std::max(1.0, std::abs(plain.q)))
          << "seed " << seed << " n " << v.size();
      ASSERT_EQ(fast.tau, plain.tau) << "seed " << seed << " n " << v.size();
    }
  }
}

TEST(EnergySplit, ConstantAndTwoLevelSeriesGiveExactZerosAndTies) {
  const std::vector<double> constant(50, 123.456);
  stats::SegmentEnergy c(constant);
  EXPECT_EQ(c.best_split(c.ranks(), 3).q, 0.0);
  EXPECT_EQ(stats::best_split_quadratic(constant, 3).q, 0.0);
  std::vector<double> two(40, 99.5);
  for (std::size_t i = 20; i < 40; ++i) two[i] = 101.25;
  stats::SegmentEnergy t(two);
  const stats::BestSplit fast = t.best_split(t.ranks(), 3);
  const stats::BestSplit plain = stats::best_split_quadratic(two, 3);
  EXPECT_EQ(fast.tau, 20u);
  EXPECT_EQ(plain.tau, 20u);
  EXPECT_DOUBLE_EQ(fast.q, plain.q);
}

TEST(EnergySplit, FindChangePointsGivesTheSameAnswersWithEitherStatisticOn600RandomSeries) {
  std::size_t with_change_points = 0;
  for (std::uint64_t seed = 1; seed <= 600; ++seed) {
    const std::vector<double> v = random_series(seed);
    stats::ChangePointOptions o;
    o.seed = seed * 31;
    o.statistic = stats::SplitStatistic::quadratic;
    const auto plain = stats::find_change_points(v, o);
    o.statistic = stats::SplitStatistic::sorted;
    const auto fast = stats::find_change_points(v, o);
    ASSERT_EQ(fast.size(), plain.size()) << "seed " << seed << " n " << v.size();
    for (std::size_t i = 0; i < fast.size(); ++i) {
      EXPECT_EQ(fast[i].index, plain[i].index) << "seed " << seed;
      EXPECT_EQ(fast[i].p_value, plain[i].p_value) << "seed " << seed;
      EXPECT_NEAR(fast[i].statistic, plain[i].statistic, 1e-9 * std::abs(plain[i].statistic))
          << "seed " << seed;
      EXPECT_EQ(fast[i].ratio, plain[i].ratio) << "seed " << seed;
    }
    if (!plain.empty()) ++with_change_points;
  }
  EXPECT_GT(with_change_points, 200u);  // the comparison covered series with steps, not only "none"
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
