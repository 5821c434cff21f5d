// gather and scatter: nccl-tests' sizing (the full n·count buffer) and busbw factor (n−1)/n,
// and the expected data: the root holds every rank's block (gather), rank r holds the root's
// block r (scatter).
#include <gtest/gtest.h>

#include "bench/engine/collective.hpp"

namespace fabricgate::bench {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

const CollectiveDef& def(const char* name) {
  const CollectiveDef* d = CollectiveRegistry::instance().find(name);
  if (d == nullptr) throw std::runtime_error(std::string(name) + " is not registered");
  return *d;
}

double input(int rank, std::size_t i) { return 100.0 * rank + static_cast<double>(i); }

TEST(GatherScatter, BusBwFactorIsNMinusOneOverN) {
  EXPECT_DOUBLE_EQ(def("gather").busbw_factor(2), 0.5);
  EXPECT_DOUBLE_EQ(def("gather").busbw_factor(8), 0.875);
  EXPECT_DOUBLE_EQ(def("scatter").busbw_factor(4), 0.75);
  EXPECT_TRUE(def("gather").rooted);
  EXPECT_TRUE(def("scatter").rooted);
  EXPECT_FALSE(def("gather").reduces);
}

TEST(GatherScatter, SizesAreTheFullBufferRoundedToRanks) {
  // 1000 bytes of float32 over 3 ranks: 83 elements per rank, 249 in the full buffer (996 bytes).
  const auto g = def("gather").counts(1000, 4, 3);
  EXPECT_EQ(g.send_count, 83u);
  EXPECT_EQ(g.recv_count, 249u);
  EXPECT_EQ(g.call_count, 83u);
  EXPECT_EQ(g.bytes, 996u);
  const auto s = def("scatter").counts(1000, 4, 3);
  EXPECT_EQ(s.send_count, 249u);
  EXPECT_EQ(s.recv_count, 83u);
  EXPECT_EQ(s.call_count, 83u);
  EXPECT_EQ(s.bytes, 996u);
  EXPECT_EQ(def("gather").counts(8, 4, 3).call_count, 0u);  // nothing fits per rank
}

TEST(GatherScatter, ExpectedData) {
  const auto g = def("gather").counts(4 * 4 * 3, 4, 3);  // 4 elements per rank
  // Root 1 holds rank 2's element 3 at 2·4+3; other ranks' buffers are undefined.
  EXPECT_EQ(def("gather").expected(1, 3, 11, g, 1, input, RedOp::sum), input(2, 3));
  EXPECT_EQ(def("gather").expected(1, 3, 0, g, 1, input, RedOp::sum), input(0, 0));
  EXPECT_FALSE(def("gather").expected(0, 3, 11, g, 1, input, RedOp::sum).has_value());
  const auto s = def("scatter").counts(4 * 4 * 3, 4, 3);
  // Rank 2 receives the root's (rank 1's) block 2: its element 3 is the root's element 2·4+3.
  EXPECT_EQ(def("scatter").expected(2, 3, 3, s, 1, input, RedOp::sum), input(1, 11));
  EXPECT_EQ(def("scatter").expected(0, 3, 0, s, 1, input, RedOp::sum), input(1, 0));
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::bench
