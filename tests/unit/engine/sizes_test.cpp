// Size parsing (binary prefixes for sizes, P08) and sweeps with nccl-tests habits.
#include <gtest/gtest.h>

#include "bench/engine/sizes.hpp"

namespace fabricgate::bench {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

TEST(Sizes, ParsesBinaryPrefixes) {
  EXPECT_EQ(parse_size("8"), 8u);
  EXPECT_EQ(parse_size("64K"), 65536u);
  EXPECT_EQ(parse_size("16M"), 16u << 20);
  EXPECT_EQ(parse_size("1G"), 1ull << 30);
  EXPECT_EQ(parse_size("16GiB"), 16ull << 30);
  EXPECT_EQ(parse_size("4gb"), 4ull << 30);  // sizes are binary whatever the spelling
  EXPECT_FALSE(parse_size(""));
  EXPECT_FALSE(parse_size("K"));
  EXPECT_FALSE(parse_size("12Q"));
  EXPECT_FALSE(parse_size("-5"));
  EXPECT_FALSE(parse_size("99999999999999999999"));
  EXPECT_FALSE(parse_size("20000000000T"));  // overflows 64 bits
}

TEST(Sizes, FactorSweepLikeNcclTests) {
  SizeSweep s;
  s.min_bytes = 8;
  s.max_bytes = 128;
  s.factor = 2;
  EXPECT_EQ(expand(s), (std::vector<std::uint64_t>{8, 16, 32, 64, 128}));
}

TEST(Sizes, IncrementSweepAndList) {
  SizeSweep s;
  s.min_bytes = 100;
  s.max_bytes = 350;
  s.increment = 100;
  EXPECT_EQ(expand(s), (std::vector<std::uint64_t>{100, 200, 300}));
  s.list = {5, 7};
  EXPECT_EQ(expand(s), (std::vector<std::uint64_t>{5, 7}));
}

TEST(Sizes, SweepIsBounded) {
  SizeSweep s;
  s.min_bytes = 1;
  s.max_bytes = UINT64_MAX;
  s.increment = 1;
  EXPECT_EQ(expand(s).size(), 4096u);
}

TEST(Sizes, FormatsWithBinaryUnits) {
  EXPECT_EQ(format_size(8), "8 B");
  EXPECT_EQ(format_size(1536), "1.5 KiB");
  EXPECT_EQ(format_size(16u << 20), "16 MiB");
  EXPECT_EQ(format_size(4ull << 30), "4 GiB");
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::bench
