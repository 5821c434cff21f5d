// Host conversions used to generate and check data for every NCCL type.
#include <gtest/gtest.h>

#include <vector>

#include "bench/engine/dtype.hpp"

namespace fabricgate::bench {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

TEST(DataTypes, NamesRoundTrip) {
  for (const DataType t : all_data_types()) {
    EXPECT_EQ(parse_data_type(to_string(t)), t);
  }
  EXPECT_FALSE(parse_data_type("float128"));
  EXPECT_EQ(parse_red_op("avg"), RedOp::avg);
  EXPECT_FALSE(parse_red_op("xor"));
}

TEST(DataTypes, SmallIntegersSurviveEveryType) {
  for (const DataType t : all_data_types()) {
    std::vector<char> buf(size_of(t) * 4);
    const double values[] = {0, 1, 7, 112};
    for (std::size_t i = 0; i < 4; ++i) store_element(t, buf.data(), i, values[i]);
    for (std::size_t i = 0; i < 4; ++i) {
      EXPECT_EQ(load_element(t, buf.data(), i), values[i])
          << to_string(t) << " value " << values[i];
    }
  }
}

TEST(DataTypes, HalfAndBfloatBitPatterns) {
  std::uint16_t h = 0;
  store_element(DataType::float16, &h, 0, 1.0);
  EXPECT_EQ(h, 0x3c00);
  store_element(DataType::bfloat16, &h, 0, 1.0);
  EXPECT_EQ(h, 0x3f80);
  store_element(DataType::float16, &h, 0, -2.0);
  EXPECT_EQ(h, 0xc000);
}

TEST(DataTypes, Sizes) {
  EXPECT_EQ(size_of(DataType::int8), 1u);
  EXPECT_EQ(size_of(DataType::bfloat16), 2u);
  EXPECT_EQ(size_of(DataType::float64), 8u);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::bench
