// The launch-based band: Student's t, the prediction interval over launch medians, a launch's own
// stability, and the verdicts they give. Expected numbers were computed once with SciPy 1.10
// (tests/unit/gate/launch_band_reference.py: scipy.stats.t.ppf / t.cdf, numpy log/std(ddof=1)),
// independently of this code.
#include "harness/gate/launch_band.hpp"

#include <gtest/gtest.h>

#include "harness/gate/metric_judge.hpp"
#include "harness/stats/statistics.hpp"

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

TEST(gate_StudentT, QuantilesMatchScipy) {
  EXPECT_NEAR(stats::student_t_quantile(0.99, 4), 3.7469473879811366, 1e-7);
  EXPECT_NEAR(stats::student_t_quantile(0.99, 2), 6.964556718755855, 1e-7);
  EXPECT_NEAR(stats::student_t_quantile(0.95, 19), 1.729132811521367, 1e-7);
  EXPECT_NEAR(stats::student_t_quantile(0.999, 9), 4.296805662730113, 1e-7);
  EXPECT_NEAR(stats::student_t_quantile(0.9, 1), 3.0776835372078066, 1e-7);
  EXPECT_NEAR(stats::student_t_quantile(0.01, 4), -3.7469473879811366, 1e-7);
  EXPECT_NEAR(stats::student_t_cdf(2.0, 3), 0.9303370157205785, 1e-12);
  EXPECT_NEAR(stats::student_t_cdf(-1.5, 7), 0.08864924349498501, 1e-12);
}

TEST(gate_PredictionBand, MatchesScipyForThreeFiveAndTwentyLaunches) {
  // The h2d pageable launch medians (GB/s) on one H200: three launches give a wide band.
  const std::vector<double> three{7.68, 8.09, 7.72};
  LaunchBand b = prediction_band(three, 0.01);
  EXPECT_EQ(b.launches, 3u);
  EXPECT_NEAR(b.centre, 7.827847338958945, 1e-12);
  EXPECT_NEAR(b.log_sd, 0.02864590224977965, 1e-12);
  EXPECT_NEAR(b.half_width, 0.2057600809178437, 1e-9);

  const std::vector<double> five{100, 102, 98, 101, 99};
  b = prediction_band(five, 0.01);
  EXPECT_NEAR(b.centre, 99.98999879971987, 1e-10);
  EXPECT_NEAR(b.log_sd, 0.015813457470131825, 1e-12);
  EXPECT_NEAR(b.half_width, 0.06284587782096118, 1e-9);

  const std::vector<double> twenty{10.0, 10.5, 9.6,  10.2, 9.9, 10.1, 9.8,  10.3, 10.0, 9.7,
                                   10.4, 9.9,  10.1, 10.0, 9.8, 10.2, 10.0, 9.9,  10.1, 10.0};
  b = prediction_band(twenty, 0.01);
  EXPECT_NEAR(b.centre, 10.022619695275917, 1e-10);
  EXPECT_NEAR(b.log_sd, 0.022343265250497266, 1e-12);
  EXPECT_NEAR(b.half_width, 0.05648362028012632, 1e-9);
}

TEST(gate_PredictionBand, NarrowsWithMoreLaunchesOfTheSameNoise) {
  // Same spread of values, three vs twelve launches: the t quantile and sqrt(1 + 1/n) shrink.
  const std::vector<double> few{99, 100, 101};
  const std::vector<double> many{99, 100, 101, 99, 100, 101, 99, 100, 101, 99, 100, 101};
  EXPECT_GT(prediction_band(few, 0.01).half_width, 2 * prediction_band(many, 0.01).half_width);
}

BaselineEntry entry_with(std::uint64_t bytes, std::vector<double> run_medians) {
  BaselineEntry e;
  e.bytes = bytes;
  e.time_us.run_medians = std::move(run_medians);
  e.time_us.median = 100;
  return e;
}

TEST(gate_LaunchBand, FloorNoisyAndCalibratedBand) {
  // One session without the allowance: the plain one-level t band (session_band's S = 1 case).
  TolerancePolicy p = TolerancePolicy::defaults();  // large floor 3 %, max_band 25 %
  p.session_allowance = 0;
  BaselineEntry tight = entry_with(1u << 30, {100, 100.1, 99.9, 100, 100.05});
  LaunchBand b = launch_band(p, tight, tight.time_us);
  EXPECT_DOUBLE_EQ(b.floor, 0.03);
  EXPECT_LT(b.half_width, 0.03);
  EXPECT_DOUBLE_EQ(b.tolerance, 0.03);  // the floor holds when the launches agree closely
  EXPECT_FALSE(b.noisy);

  BaselineEntry wild = entry_with(1u << 30, {60, 100, 140});
  b = launch_band(p, wild, wild.time_us);
  EXPECT_TRUE(b.noisy);  // reported with its noise, not silently widened
  EXPECT_GT(b.half_width, p.max_band);

  wild.band = CalibratedBand{0.04, 20, 0.012, "2026-12-01T00:00:00Z"};
  b = launch_band(p, wild, wild.time_us);
  EXPECT_TRUE(b.calibrated);
  EXPECT_EQ(b.launches, 20u);
  EXPECT_DOUBLE_EQ(b.tolerance, 0.04);
  EXPECT_FALSE(b.noisy);
}

TEST(gate_BandAroundCentre, CoversTheOffsetFromTheBaselineCentreAsWellAsTheSpread) {
  // Four A/A launches 10 % slower than a baseline centre of 100 us: a band around their own mean
  // would be narrow; around the centre the gate uses it must also hold the 10 %. SciPy:
  // max(0, mean log(x/100)) + t_{3, 0.999} * sd * sqrt(1 + 1/4).
  const std::vector<double> slow_time{110, 111, 109, 110};
  EXPECT_NEAR(band_around_centre(slow_time, 100, false, 0.001).half_width, 0.16478067165737298,
              1e-9);
  const std::vector<double> low_bandwidth{90, 91, 89,
                                          90};  // higher is better: 10 % below the centre
  EXPECT_NEAR(band_around_centre(low_bandwidth, 100, true, 0.001).half_width, 0.18860683116439436,
              1e-9);
  // Launches FASTER than the centre earn no narrower band than their spread alone.
  EXPECT_NEAR(band_around_centre(low_bandwidth, 100, false, 0.001).half_width, 0.09842420692538567,
              1e-9);
  EXPECT_EQ(band_around_centre(std::vector<double>{100}, 100, false, 0.001).half_width, 0);
}

TEST(gate_FamilyWise, EachKeyGetsLaunchAlphaOverTheKeyCount) {
  // 115 keys judged in one launch at 1 % each would fail about 68 % of A/A launches somewhere.
  TolerancePolicy p = TolerancePolicy::defaults();
  ASSERT_TRUE(p.launch_alpha);
  set_family_size(p, 115);
  EXPECT_NEAR(p.band_alpha, 0.01 / 115, 1e-15);
  EXPECT_NEAR(stats::student_t_quantile(1 - p.band_alpha, 4), 13.50603361595207, 1e-6);  // SciPy
  EXPECT_NEAR(stats::student_t_quantile(1 - p.band_alpha, 19), 4.65164920792192, 1e-7);
  set_family_size(p, 0);
  EXPECT_NEAR(p.band_alpha, 0.01, 1e-15);  // never divided by zero
  p.launch_alpha.reset();
  p.band_alpha = 0.02;
  set_family_size(p, 115);
  EXPECT_EQ(p.band_alpha, 0.02);  // a per-key level written without launch_alpha stays as written
}

TEST(gate_LaunchInstability, RobustCvOfRepetitionsMatchesNumpy) {
  const std::vector<double> steady{10, 10.2, 9.9, 10.1, 10.0};
  const std::vector<double> torn{10, 14, 7, 12, 9};
  EXPECT_NEAR(launch_instability(steady), 0.014825999999999947, 1e-12);
  EXPECT_NEAR(launch_instability(torn), 0.29652, 1e-12);
  const std::vector<double> single{10};
  EXPECT_EQ(launch_instability(single),
            0);  // an imported one-value launch has no stability of its own
}

TEST(gate_LaunchVerdict, NoisyThenUnstableThenBand) {
  const TolerancePolicy p = TolerancePolicy::defaults();
  verdict::MetricJudgement j;
  j.metric = verdict::Metric::algbw_GBps;
  j.baseline_median = 100;
  j.tolerance = 0.05;
  j.lower_limit = 95;          // centre * (1 - tolerance): the drawn fail line
  j.upper_limit = 100 / 0.95;  // centre / (1 - tolerance) = 105.26
  j.current_median = 94;
  EXPECT_EQ(verdict_from_judgement(j, p), verdict::Verdict::regression);
  j.current_median = 96;
  EXPECT_EQ(verdict_from_judgement(j, p), verdict::Verdict::pass);
  j.current_median = 106;
  EXPECT_EQ(verdict_from_judgement(j, p), verdict::Verdict::improvement);
  j.metric = verdict::Metric::time_us;  // time: the upper limit is the fail line
  j.current_median = 106;
  EXPECT_EQ(verdict_from_judgement(j, p), verdict::Verdict::regression);
  j.current_median = 94;
  EXPECT_EQ(verdict_from_judgement(j, p), verdict::Verdict::improvement);
  j.current_median = 50;
  j.launch_cv = 0.3;  // above unstable_cv 0.25: this launch is not judged
  EXPECT_EQ(verdict_from_judgement(j, p), verdict::Verdict::unstable);
  j.noisy = true;  // an unstable launch of a NOISY key: reported NOISY, not judged
  EXPECT_EQ(verdict_from_judgement(j, p), verdict::Verdict::noisy);
  // A NOISY key fails only beyond its own (wide) band, issue 53: time 50 -> 106 is beyond the
  // upper limit 105.26, 104 is inside it and an improvement is informational.
  j.launch_cv = 0.01;
  j.current_median = 106;
  EXPECT_EQ(verdict_from_judgement(j, p), verdict::Verdict::regression);
  j.current_median = 104;
  EXPECT_EQ(verdict_from_judgement(j, p), verdict::Verdict::noisy);
  j.current_median = 50;
  EXPECT_EQ(verdict_from_judgement(j, p), verdict::Verdict::noisy);
  EXPECT_FALSE(verdict::verdict_fails_gate(verdict::Verdict::noisy));
  EXPECT_FALSE(verdict::verdict_fails_gate(verdict::Verdict::unstable));  // not judged: a warning
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
