// The session allowance `calibrate --by-session` suggests: the nearest-rank 90th percentile of the
// keys' between-session SDs, rounded up to a whole percent (answers worked out by hand below).
#include <vector>

#include <gtest/gtest.h>

#include "harness/baseline/session_calibration.hpp"

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

TEST(gate_SessionAllowance, NinetiethPercentileRoundedUpToAWholePercent) {
  // Ten keys, 1 % .. 10 %: rank ceil(0.9 * 10) = 9 -> 9 %, already whole.
  std::vector<double> ten;
  for (int i = 1; i <= 10; ++i) ten.push_back(i / 100.0);
  EXPECT_DOUBLE_EQ(baseline::allowance_from_between_sds(ten), 0.09);
  // Order does not matter; 9.2 % at rank 9 rounds up to 10 %.
  std::vector<double> shuffled{0.10, 0.01, 0.092, 0.03, 0.02, 0.05, 0.04, 0.07, 0.06, 0.08};
  EXPECT_DOUBLE_EQ(baseline::allowance_from_between_sds(shuffled), 0.10);
  // Eleven keys: rank ceil(9.9) = 10, the 10th smallest (13.86 % -> 14 %), not the largest.
  std::vector<double> eleven{0.0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.1386, 0.30};
  EXPECT_DOUBLE_EQ(baseline::allowance_from_between_sds(eleven), 0.14);
  EXPECT_DOUBLE_EQ(baseline::allowance_from_between_sds(std::vector<double>{}), 0.0);
  // Every key estimated at zero between sessions: no allowance beyond zero is suggested.
  EXPECT_DOUBLE_EQ(baseline::allowance_from_between_sds(std::vector<double>(5, 0.0)), 0.0);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
