// find_two_levels: a side whose launches sit on two levels (a fast path taken in some processes,
// not in others) is found in nearly every seeded draw; a unimodal side of the same total spread
// is not; one slow launch is an outlier, not a second state; the levels and counts are reported.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "harness/stats/two_levels.hpp"

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

constexpr double kTolerance = 0.08;  // the default policy's medium size class

// Ten launch medians: `slow` of them at 1.3 x the level, the rest at 1.0, 1 % noise each.
std::vector<double> two_state_side(unsigned seed, int slow) {
  std::mt19937_64 g(seed);
  std::normal_distribution<double> noise(0, 0.01);
  std::vector<double> v;
  for (int i = 0; i < 10; ++i) v.push_back(100 * (i < slow ? 1.3 : 1.0) * std::exp(noise(g)));
  std::shuffle(v.begin(), v.end(), g);
  return v;
}

double log_sd(const std::vector<double>& v) {
  double mean = 0;
  for (const double x : v) mean += std::log(x);
  mean /= static_cast<double>(v.size());
  double ss = 0;
  for (const double x : v) ss += (std::log(x) - mean) * (std::log(x) - mean);
  return std::sqrt(ss / static_cast<double>(v.size() - 1));
}

TEST(TwoLevels, TwoStateSideIsFlaggedInNineOfTenDraws) {
  int flagged = 0;
  for (unsigned seed = 1; seed <= 10; ++seed) {
    const auto v = two_state_side(seed, 4);
    const stats::TwoLevels t = stats::find_two_levels(v, kTolerance);
    if (!t.found) continue;
    ++flagged;
    EXPECT_NEAR(t.low_level, 100, 3);
    EXPECT_NEAR(t.high_level, 130, 4);
    EXPECT_EQ(t.low_count, 6u);
    EXPECT_EQ(t.high_count, 4u);
  }
  EXPECT_GE(flagged, 9);
}

TEST(TwoLevels, UnimodalSideWithTheSameSpreadIsNotFlagged) {
  // The two-state side's total spread (log SD ~ 0.13), as normal noise around one level.
  double sd = 0;
  for (unsigned seed = 1; seed <= 10; ++seed) sd += log_sd(two_state_side(seed, 4)) / 10;
  ASSERT_GT(sd, 0.1);
  int flagged = 0;
  for (unsigned seed = 1; seed <= 10; ++seed) {
    std::mt19937_64 g(1000 + seed);
    std::normal_distribution<double> noise(0, sd);
    std::vector<double> v;
    for (int i = 0; i < 10; ++i) v.push_back(115 * std::exp(noise(g)));
    ASSERT_GT(log_sd(v), 0.05);
    flagged += stats::find_two_levels(v, kTolerance).found ? 1 : 0;
  }
  EXPECT_EQ(flagged, 0);
}

TEST(TwoLevels, OneSlowLaunchIsAnOutlierNotAState) {
  std::vector<double> v = {100, 101, 99, 100.5, 99.5, 100.2, 300};
  EXPECT_FALSE(stats::find_two_levels(v, kTolerance).found);
  v.push_back(301);  // a second one at that level: now two states
  const stats::TwoLevels t = stats::find_two_levels(v, kTolerance);
  EXPECT_TRUE(t.found);
  EXPECT_EQ(t.high_count, 2u);
}

TEST(TwoLevels, LevelsCloserThanTheToleranceAreOneState) {
  // Clean clusters 5 % apart: separated, but not by more than the 8 % tolerance.
  const std::vector<double> v = {100, 100.1, 99.9, 100, 105, 105.1, 104.9, 105};
  EXPECT_TRUE(stats::find_two_levels(v, 0.03).found);
  EXPECT_FALSE(stats::find_two_levels(v, kTolerance).found);
}

TEST(TwoLevels, StateExcessIsFishersOneSidedTest) {
  // 4 of 8 B launches slow, 0 of 8 A: C(8,4) / C(16,4) = 70 / 1820.
  EXPECT_NEAR(stats::state_excess_p(4, 8, 0, 8), 70.0 / 1820.0, 1e-12);
  EXPECT_NEAR(stats::state_excess_p(0, 8, 3, 8), 1.0, 1e-12);  // B never in it: no evidence at all
  EXPECT_GT(stats::state_excess_p(2, 11, 0, 11), 0.2);         // two slow launches drawn into B
  EXPECT_LT(stats::state_excess_p(12, 12, 0, 12), 1e-6);
}

TEST(TwoLevels, TooFewLaunchesAreNeverTwoStates) {
  EXPECT_FALSE(stats::find_two_levels(std::vector<double>{100, 200, 100}, kTolerance).found);
  EXPECT_TRUE(std::isinf(stats::two_levels_threshold(3)));
  EXPECT_GT(stats::two_levels_threshold(4), stats::two_levels_threshold(10));
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
