// The dip check: bandwidth that falls as the size grows, beyond threshold + noise, names sizes.
#include <gtest/gtest.h>

#include "harness/roofline/judge.hpp"

namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fr = fabricgate::roofline;
using fabricgate::BenchmarkResult;

namespace {

BenchmarkResult point(std::uint64_t bytes, std::vector<double> samples) {
  BenchmarkResult r;
  r.family = "hostcopy";
  r.backend = "cuda";
  r.op = "copy";
  r.params = {{"direction", "h2d"}};
  r.bytes = bytes;
  r.key = "hostcopy/h2d/bytes:" + std::to_string(bytes);
  r.samples.algbw_GBps = samples;
  r.algbw_GBps = fabricgate::median(samples);
  return r;
}

fr::DipPolicy policy() {
  fr::DipPolicy p;
  p.threshold = 0.05;
  p.noise_cv_multiple = 3;
  p.min_bytes = 64ull << 20;
  p.source = "test";
  return p;
}

}  // namespace

TEST(RooflineDip, SevenPercentDropWithSteadyRepetitionsIsADip) {
  // 100 -> 93 GB/s: drop 7 % > 5 % + 3 x 0 noise.
  const auto dips = fr::find_dips(
      {point(256ull << 20, {100, 100, 100}), point(1ull << 30, {93, 93, 93})}, policy());
  ASSERT_EQ(dips.size(), 1u);
  EXPECT_NEAR(dips[0].drop, 0.07, 1e-12);
  EXPECT_NE(dips[0].text.find("from 256 MiB (100.0 GB/s) to 1 GiB (93.0 GB/s)"), std::string::npos);
}

TEST(RooflineDip, FourPercentDropIsNot) {
  EXPECT_TRUE(fr::find_dips({point(256ull << 20, {100, 100, 100}), point(1ull << 30, {96, 96, 96})},
                            policy())
                  .empty());
}

TEST(RooflineDip, NoisyRepetitionsWidenTheAllowance) {
  // Samples 93 +- 3: MAD 3, robust CV = 1.4826 x 3 / 93 = 0.0478; allowance 5 % + 3 x 4.78 % =
  // 19.3 % > the 7 % drop: no dip.
  const auto dips = fr::find_dips(
      {point(256ull << 20, {100, 100, 100}), point(1ull << 30, {90, 93, 96})}, policy());
  EXPECT_TRUE(dips.empty());
  EXPECT_NEAR(fr::robust_cv({90, 93, 96}), 1.4826 * 3 / 93, 1e-12);
}

TEST(RooflineDip, SmallSizesAreLatencyBoundAndNotChecked) {
  EXPECT_TRUE(
      fr::find_dips({point(1ull << 20, {100, 100, 100}), point(4ull << 20, {50, 50, 50})}, policy())
          .empty());
}

TEST(RooflineDip, DifferentSeriesAreNotCompared) {
  BenchmarkResult other = point(1ull << 30, {50, 50, 50});
  other.params = {{"direction", "d2h"}};
  EXPECT_TRUE(fr::find_dips({point(256ull << 20, {100, 100, 100}), other}, policy()).empty());
}
}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
