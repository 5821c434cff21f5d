// busbw factors and buffer sizing against hand-computed values (nccl-tests' conventions).
#include <gtest/gtest.h>

#include "bench/engine/collective.hpp"

namespace fabricgate::bench {
namespace {

const CollectiveDef& def(const char* name) {
  const CollectiveDef* d = CollectiveRegistry::instance().find(name);
  EXPECT_NE(d, nullptr) << name;
  return *d;
}

TEST(BusBw, FactorsMatchHandComputedValues) {
  EXPECT_DOUBLE_EQ(def("all_reduce").busbw_factor(2), 1.0);      // 2·1/2
  EXPECT_DOUBLE_EQ(def("all_reduce").busbw_factor(8), 1.75);     // 2·7/8 (P04)
  EXPECT_DOUBLE_EQ(def("all_reduce").busbw_factor(16), 1.875);   // 2·15/16 (P04)
  EXPECT_DOUBLE_EQ(def("all_gather").busbw_factor(4), 0.75);
  EXPECT_DOUBLE_EQ(def("reduce_scatter").busbw_factor(8), 0.875);
  EXPECT_DOUBLE_EQ(def("alltoall").busbw_factor(2), 0.5);
  EXPECT_DOUBLE_EQ(def("broadcast").busbw_factor(8), 1.0);
  EXPECT_DOUBLE_EQ(def("reduce").busbw_factor(8), 1.0);
  EXPECT_DOUBLE_EQ(def("sendrecv").busbw_factor(8), 1.0);
}

TEST(BusBw, NineCollectivesAreRegistered) {
  EXPECT_EQ(CollectiveRegistry::instance().all().size(), 9u);  // + gather, scatter (#3)
}

TEST(Counts, GatherAndScatterRoundToRankMultiples) {
  // 1000 bytes of float32 over 3 ranks: 250 elements → 83 per rank → 249 elements = 996 bytes.
  const auto ag = def("all_gather").counts(1000, 4, 3);
  EXPECT_EQ(ag.send_count, 83u);
  EXPECT_EQ(ag.recv_count, 249u);
  EXPECT_EQ(ag.bytes, 996u);
  const auto rs = def("reduce_scatter").counts(1000, 4, 3);
  EXPECT_EQ(rs.send_count, 249u);
  EXPECT_EQ(rs.recv_count, 83u);
  EXPECT_EQ(rs.call_count, 83u);
  const auto a2a = def("alltoall").counts(1000, 4, 3);
  EXPECT_EQ(a2a.call_count, 83u);
  EXPECT_EQ(a2a.send_count, 249u);
}

TEST(Counts, AllReduceRoundsToElements) {
  const auto c = def("all_reduce").counts(10, 4, 2);
  EXPECT_EQ(c.call_count, 2u);
  EXPECT_EQ(c.bytes, 8u);
  EXPECT_EQ(def("all_reduce").counts(3, 4, 2).call_count, 0u);  // nothing fits: not registered
}

}  // namespace
}  // namespace fabricgate::bench
