// `fabricgate calibrate` over synthetic A/A launches: CV, false alarms with and without the
// confirmation pairing, MDE per size class, NOISY keys.
#include "harness/baseline/calibration.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "harness/baseline/baseline_builder.hpp"
#include "harness/gate/launch_band.hpp"
#include "tests/unit/gate/gate_fixtures.hpp"

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using testing::json;

// Two keys: a steady large one and a small one whose launches scatter by +-40 %.
RunRecord launch(const std::string& id, double large_time, double small_time) {
  testing::ResultSpec large;
  large.bytes = 64u << 20;
  large.time_us = {large_time, large_time * 1.001, large_time * 0.999};
  testing::ResultSpec small;
  small.bytes = 8;
  small.time_us = {small_time, small_time, small_time};
  testing::RunSpec rs;
  rs.run_id = id;
  return testing::to_run(
      testing::make_run(rs, {testing::make_result(large), testing::make_result(small)}));
}

TEST(gate_Calibration, CountsFalseAlarmsAndSaysWhatIsTooNoisy) {
  baseline::BaselineBuildOptions o;
  o.now = "2026-12-01T00:00:00Z";
  // The three baseline launches are one session; without the between-session allowance the band
  // is the one-level band this test is about (sessions: variance_components_test.cpp).
  o.policy.session_allowance = 0;
  const Baseline b =
      baseline::create_baseline(
          {launch("b1", 1000, 10), launch("b2", 1002, 10.1), launch("b3", 998, 9.9)}, o)
          .baseline;
  // Launch a2 is 5 % slow on the large key (beyond its 3 % floor); a3 is normal: one failure,
  // not confirmed by the next launch.
  const std::vector<RunRecord> aa{launch("a1", 1001, 6), launch("a2", 1050, 14),
                                  launch("a3", 999, 10), launch("a4", 1000, 7),
                                  launch("a5", 1001, 13)};
  const baseline::CalibrationTable t = baseline::calibrate(aa, &b, b.policy);
  EXPECT_EQ(t.launches, 5u);
  ASSERT_EQ(t.rows.size(), 2u);
  const baseline::CalibrationRow& large = t.rows[0].bytes == 8 ? t.rows[1] : t.rows[0];
  const baseline::CalibrationRow& small = t.rows[0].bytes == 8 ? t.rows[0] : t.rows[1];
  EXPECT_EQ(large.failing, 1u);
  EXPECT_EQ(large.failing_confirmed, 0u);
  EXPECT_TRUE(small.noisy);  // +-40 % between launches: said so, not gated
  EXPECT_FALSE(large.noisy);
  // Two keys share launch_alpha 1 %: each band is at 0.5 %. The large key's MDE is the band these
  // five launch medians need around the baseline's centre (geometric mean of 1000, 1002, 998):
  // max(0, mean loss) + t_{4, 0.995} s sqrt(1 + 1/5) in log space, computed with SciPy once.
  EXPECT_NEAR(b.policy.band_alpha, 0.005, 1e-15);
  EXPECT_NEAR(large.mde, 0.112657163792239, 1e-9);
  EXPECT_GT(large.mde80, large.mde);
  const std::string text = baseline::render_calibration(t);
  EXPECT_NE(text.find("NOISY"), std::string::npos) << text;
  EXPECT_NE(text.find("per size class"), std::string::npos) << text;

  Baseline written = b;
  EXPECT_EQ(baseline::write_calibrated_bands(written, t, "2026-12-02T00:00:00Z"), 2u);
  const BaselineEntry& e = written.entries.begin()->second;
  ASSERT_TRUE(e.band);
  EXPECT_EQ(e.band->launches, 5);
}

TEST(gate_Calibration, NeedsTwoLaunches) {
  EXPECT_THROW(baseline::calibrate({launch("a1", 1, 1)}, nullptr, TolerancePolicy::defaults()),
               InputError);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
