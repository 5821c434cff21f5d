// Change points and DRIFT on synthetic histories with known answers: A/A series at CPU and GPU
// launch-to-launch noise, steps of known size and place, a slow slide. Noise levels: CPU CV 8 %
// with occasional +25 % outliers (a shared 2-core runner), GPU CV 1 % (the upper end of the
// 0.5-1 % the H200 runs in results/ repeat within).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "harness/gate/drift.hpp"
#include "harness/stats/change_points.hpp"
#include "tests/unit/gate/seeded_random.hpp"

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using Noise = fabricgate::testing::SeededRandom;

struct Level {
  double cv;
  double outlier_rate;  // fraction of runs 25 % slower (time) or lower (bandwidth)
};
constexpr Level kCpu{0.08, 0.05};
constexpr Level kGpu{0.01, 0.0};

// n bandwidth medians around 100 with `level` noise; from `step_at` on, multiplied by
// (1 + step); each run also multiplied by (1 + slide)^i.
std::vector<double> series(std::size_t n, Level level, std::uint64_t seed, std::size_t step_at = 0,
                           double step = 0, double slide = 0) {
  Noise noise(seed);
  std::vector<double> v;
  for (std::size_t i = 0; i < n; ++i) {
    double x = 100 * (1 + level.cv * noise.normal());
    if (noise.uniform() < level.outlier_rate) x *= 0.75;
    if (step_at > 0 && i >= step_at) x *= 1 + step;
    x *= std::pow(1 + slide, static_cast<double>(i));
    v.push_back(std::max(x, 1.0));
  }
  return v;
}

std::size_t aa_histories_with_change_points(Level level, std::size_t n) {
  std::size_t flagged = 0;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    stats::ChangePointOptions o;
    o.seed = seed * 7919;
    if (!stats::find_change_points(series(n, level, seed), o).empty()) ++flagged;
  }
  return flagged;
}

TEST(ChangePoints, AaHistoriesAtCpuNoiseHaveNoChangePointIn95PercentOf200) {
  EXPECT_LE(aa_histories_with_change_points(kCpu, 20), 10u);
  EXPECT_LE(aa_histories_with_change_points(kCpu, 40), 10u);
}

TEST(ChangePoints, AaHistoriesAtGpuNoiseHaveNoChangePointIn95PercentOf200) {
  EXPECT_LE(aa_histories_with_change_points(kGpu, 20), 10u);
  EXPECT_LE(aa_histories_with_change_points(kGpu, 40), 10u);
}

// Fraction of 200 seeded histories where a change point lies within 3 runs of the step.
double found_within_3(Level level, double step, std::size_t n, std::size_t step_at) {
  std::size_t found = 0;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    stats::ChangePointOptions o;
    o.seed = seed;
    for (const stats::ChangePoint& cp :
         stats::find_change_points(series(n, level, 1000 + seed, step_at, step), o)) {
      const long distance = static_cast<long>(cp.index) - static_cast<long>(step_at);
      if (std::labs(distance) <= 3) {
        ++found;
        break;
      }
    }
  }
  return static_cast<double>(found) / 200;
}

TEST(ChangePoints, FivePercentStepAtGpuNoiseIsFoundWithinThreeRuns) {
  EXPECT_GE(found_within_3(kGpu, -0.05, 20, 12), 0.95);
  EXPECT_GE(found_within_3(kGpu, -0.05, 20, 16), 0.95);  // 4 runs on the new level
  EXPECT_GE(found_within_3(kGpu, 0.05, 40, 25), 0.95);
}

TEST(ChangePoints, ThirtyPercentStepAtCpuNoiseIsFoundWithinThreeRuns) {
  EXPECT_GE(found_within_3(kCpu, -0.30, 20, 12), 0.95);
  EXPECT_GE(found_within_3(kCpu, -0.30, 40, 30), 0.95);
}

TEST(ChangePoints, StepCarriesSizeDirectionIntervalAndSignificance) {
  stats::ChangePointOptions o;
  const auto cps = stats::find_change_points(series(20, kGpu, 42, 12, -0.05), o);
  ASSERT_EQ(cps.size(), 1u);
  EXPECT_EQ(cps[0].index, 12u);
  EXPECT_NEAR(cps[0].ratio, 0.95, 0.01);
  EXPECT_TRUE(cps[0].interval_bounded);
  EXPECT_LT(cps[0].ratio_low, cps[0].ratio);
  EXPECT_GT(cps[0].ratio_high, cps[0].ratio);
  EXPECT_LT(cps[0].ratio_high, 1.0);  // the interval excludes "no change"
  EXPECT_LE(cps[0].p_value, o.alpha);
  EXPECT_NEAR(cps[0].before_median, 100, 1.5);
}

TEST(ChangePoints, TwoStepsAreBothFound) {
  const auto cps =
      stats::find_change_points(series(30, kGpu, 5, 10, 0), stats::ChangePointOptions{});
  std::vector<double> v = series(30, kGpu, 5);
  for (std::size_t i = 10; i < 30; ++i) v[i] *= 0.9;
  for (std::size_t i = 20; i < 30; ++i) v[i] *= 1.2;
  const auto two = stats::find_change_points(v, stats::ChangePointOptions{});
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].index, 10u);
  EXPECT_EQ(two[1].index, 20u);
  EXPECT_TRUE(cps.empty());
}

TEST(ChangePoints, SameSeedSameAnswerAndShortSeriesHaveNone) {
  const auto v = series(20, kCpu, 77, 10, -0.15);
  stats::ChangePointOptions o;
  o.seed = 123;
  const auto a = stats::find_change_points(v, o);
  const auto b = stats::find_change_points(v, o);
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].index, b[i].index);
    EXPECT_EQ(a[i].p_value, b[i].p_value);
  }
  EXPECT_TRUE(stats::find_change_points(std::vector<double>{1, 2, 3, 4, 5}, o).empty());
  EXPECT_TRUE(stats::find_change_points(std::vector<double>(20, 5.0), o)
                  .empty());  // constant: nothing to split
}

TEST(Drift, HalfPercentPerRunSlideIsDrift) {
  std::size_t flagged = 0;
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    stats::ChangePointOptions o;
    o.seed = seed;
    const auto v = series(20, kGpu, 500 + seed, 0, 0, -0.005);  // bandwidth 0.5 % lower every run
    if (const auto f = detect_drift(v, true, DriftPolicy{}, o)) {
      ++flagged;
      EXPECT_LT(f->performance_ratio, 0.98);
      EXPECT_GE(f->runs_on_level, 3u);
      EXPECT_GT(f->began_index, 0u);
    }
  }
  EXPECT_GE(flagged, 48u);  // >= 95 %
}

TEST(Drift, SlideInLatencyIsDriftAndSlideUpIsNot) {
  std::vector<double> time = series(20, kGpu, 9, 0, 0, 0.005);  // time 0.5 % longer every run
  ASSERT_TRUE(detect_drift(time, false, DriftPolicy{}, stats::ChangePointOptions{}));
  EXPECT_FALSE(detect_drift(time, true, DriftPolicy{},
                            stats::ChangePointOptions{}));  // as bandwidth: better
}

TEST(Drift, AaHistoriesDoNotDrift) {
  std::size_t flagged = 0;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    stats::ChangePointOptions o;
    o.seed = seed;
    if (detect_drift(series(20, kCpu, 3000 + seed), true, DriftPolicy{}, o)) ++flagged;
    if (detect_drift(series(20, kGpu, 6000 + seed), true, DriftPolicy{}, o)) ++flagged;
  }
  EXPECT_LE(flagged, 8u);  // of 400: <= 2 %
}

TEST(Drift, StepWorseThanThresholdNamesItsFirstRunAndSmallStepIsNot) {
  const auto step = series(20, kGpu, 11, 15, -0.04);
  const auto f = detect_drift(step, true, DriftPolicy{}, stats::ChangePointOptions{});
  ASSERT_TRUE(f);
  EXPECT_EQ(f->began_index, 15u);
  EXPECT_EQ(f->runs_on_level, 5u);
  DriftPolicy loose;
  loose.threshold = 0.06;  // a 4 % step is within a 6 % drift threshold
  EXPECT_FALSE(detect_drift(step, true, loose, stats::ChangePointOptions{}));
}

TEST(Drift, NoiseThresholdMatchesAHandComputation) {
  // Differences of log(100, 110, 100, 110, 100) are +-0.0953: MAD 0.0953, sigma = 1.4826 MAD / sqrt
  // 2; t_{3, 0.99} (SciPy) x sigma x sqrt(1/2 + 1/3), as a relative loss.
  const std::vector<double> v{100, 110, 100, 110, 100};
  EXPECT_NEAR(drift_noise_threshold(v, 2, 3, 0.01), 0.3391127383226159, 1e-9);
  EXPECT_EQ(drift_noise_threshold(std::vector<double>{100, 101}, 1, 1, 0.01),
            0);  // too short to say
}

TEST(Drift, AStepInsideTheKeysLaunchNoiseIsNotDriftALargeOneIs) {
  // A key moving 10 % from launch to launch (the 2-core CPU box), judged at a family-wise level of
  // 1 % over 115 keys: a 13 % step lasting 4 runs is within its noise, a 50 % step is not.
  constexpr Level kNoisy{0.10, 0.0};
  DriftPolicy policy;
  policy.band_alpha = 0.01 / 115;
  std::size_t small = 0;
  std::size_t large = 0;
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    stats::ChangePointOptions o;
    o.seed = seed;
    if (detect_drift(series(20, kNoisy, 7000 + seed, 16, -0.13), true, policy, o)) ++small;
    if (detect_drift(series(20, kNoisy, 8000 + seed, 14, -0.5), true, policy, o)) ++large;
  }
  EXPECT_LE(small, 2u);
  EXPECT_GE(large, 45u);
}

TEST(Drift, ApplyDriftTurnsPassIntoDriftNamingTheRun) {
  verdict::Comparison c;
  verdict::KeyComparison k;
  k.key = "coll/mpi/all_reduce/float32/sum/bytes:1048576/ranks:2/oop";
  k.verdict = verdict::Verdict::pass;
  k.busbw_now = 90;
  c.keys.push_back(k);
  KeySeries s;
  s.values = series(20, kGpu, 21, 14, -0.05);
  for (std::size_t i = 0; i < s.values.size(); ++i) s.run_ids.push_back("run-" + std::to_string(i));
  const std::size_t marked =
      apply_drift(c, DriftPolicy{}, stats::ChangePointOptions{},
                  [&](const verdict::KeyComparison&) -> const KeySeries* { return &s; });
  EXPECT_EQ(marked, 1u);
  EXPECT_EQ(c.keys[0].verdict, verdict::Verdict::drift);
  EXPECT_TRUE(verdict::verdict_fails_gate(verdict::Verdict::drift));
  EXPECT_STREQ(verdict::verdict_name(verdict::Verdict::drift), "DRIFT");
  EXPECT_NE(c.keys[0].reason.find("began at run run-14"), std::string::npos) << c.keys[0].reason;
  EXPECT_EQ(c.exit_code, ExitCode::gate_failure);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
