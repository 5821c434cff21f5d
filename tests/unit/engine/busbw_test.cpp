// busbw factors and buffer sizing against hand-computed values (nccl-tests' conventions).
#include <gtest/gtest.h>

#include <vector>

#include "bench/engine/collective.hpp"

namespace fabricgate::bench {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

const CollectiveDef& def(const char* name) {
  const CollectiveDef* d = CollectiveRegistry::instance().find(name);
  EXPECT_NE(d, nullptr) << name;
  return *d;
}

TEST(BusBw, FactorsMatchHandComputedValues) {
  EXPECT_DOUBLE_EQ(def("all_reduce").busbw_factor(2), 1.0);     // 2·1/2
  EXPECT_DOUBLE_EQ(def("all_reduce").busbw_factor(8), 1.75);    // 2·7/8 (P04)
  EXPECT_DOUBLE_EQ(def("all_reduce").busbw_factor(16), 1.875);  // 2·15/16 (P04)
  EXPECT_DOUBLE_EQ(def("all_gather").busbw_factor(4), 0.75);
  EXPECT_DOUBLE_EQ(def("reduce_scatter").busbw_factor(8), 0.875);
  EXPECT_DOUBLE_EQ(def("alltoall").busbw_factor(2), 0.5);
  EXPECT_DOUBLE_EQ(def("broadcast").busbw_factor(8), 1.0);
  EXPECT_DOUBLE_EQ(def("reduce").busbw_factor(8), 1.0);
  EXPECT_DOUBLE_EQ(def("sendrecv").busbw_factor(8), 1.0);
}

TEST(BusBw, AlltoallvCountsTheLocalBlockOutOfItsUnevenShare) {
  // Rank s sends d ((d − s) mod n + 1) units: S = n(n+1)/2 units per rank, 1 of them local.
  EXPECT_DOUBLE_EQ(def("alltoallv").busbw_factor(2), 2.0 / 3.0);    // S = 3
  EXPECT_DOUBLE_EQ(def("alltoallv").busbw_factor(4), 9.0 / 10.0);   // S = 10
  EXPECT_DOUBLE_EQ(def("alltoallv").busbw_factor(8), 35.0 / 36.0);  // S = 36
}

TEST(BusBw, EveryCollectiveIsRegisteredOnce) {
  const auto& all = CollectiveRegistry::instance().all();
  EXPECT_EQ(all.size(), kCollectives.size());  // one fixture file per core row
  for (const CollectiveFacts& facts : kCollectives) {
    const CollectiveDef* d = CollectiveRegistry::instance().find(facts.name);
    ASSERT_NE(d, nullptr) << facts.name << " has a core row but no fixture file";
    EXPECT_EQ(d->kind, facts.kind) << facts.name;
    EXPECT_EQ(d->reduces, facts.reduces) << facts.name;
    EXPECT_EQ(d->rooted, facts.rooted) << facts.name;
    EXPECT_EQ(d->busbw_factor, facts.busbw_factor) << facts.name;
  }
  for (std::size_t i = 0; i < all.size(); ++i) {
    for (std::size_t j = i + 1; j < all.size(); ++j) {
      EXPECT_NE(all[i].kind, all[j].kind) << all[i].name << " and " << all[j].name;
      EXPECT_NE(all[i].name, all[j].name);
    }
  }
}

TEST(Placement, InPlaceFormsLiveOnTheDefinition) {
  const CollectiveCounts ag = def("all_gather").counts(1200, 4, 3);  // 100 elements per rank
  EXPECT_EQ(def("all_gather").in_place_offset(2, ag), 200u);         // rank 2's own block
  EXPECT_EQ(def("all_reduce").in_place_offset(1, def("all_reduce").counts(64, 4, 2)), 0u);
  EXPECT_TRUE(def("broadcast").root_input_only);
  for (const char* out_of_place_only :
       {"reduce_scatter", "alltoall", "alltoallv", "sendrecv", "gather", "scatter"}) {
    EXPECT_FALSE(def(out_of_place_only).supports_in_place()) << out_of_place_only;
    EXPECT_NE(placement_unsupported_reason(def(out_of_place_only), true).find("in-place"),
              std::string::npos);
    EXPECT_TRUE(placement_unsupported_reason(def(out_of_place_only), false).empty());
  }
}

TEST(Counts, AlltoallvBlocksAreUnevenButTotalsEqual) {
  // 4 ranks, float32, 4000 bytes: 1000 elements / S = 10 units → unit 100.
  const CollectiveDef& d = def("alltoallv");
  const CollectiveCounts c = d.counts(4000, 4, 4);
  EXPECT_EQ(c.call_count, 100u);
  EXPECT_EQ(c.send_count, 1000u);
  EXPECT_EQ(c.recv_count, 1000u);
  EXPECT_EQ(c.bytes, 4000u);
  EXPECT_EQ(d.counts(4004, 4, 4).bytes, 4000u);  // rounded down to whole units
  EXPECT_EQ(d.counts(36, 4, 4).call_count, 0u);  // less than one unit per block: not registered
  const PeerBlocks rank1 = peer_blocks(d, c, 1, 4);
  EXPECT_EQ(rank1.send_counts, (std::vector<std::size_t>{400, 100, 200, 300}));
  EXPECT_EQ(rank1.send_offsets, (std::vector<std::size_t>{0, 400, 500, 700}));
  EXPECT_EQ(rank1.recv_counts, (std::vector<std::size_t>{200, 100, 400, 300}));
  EXPECT_EQ(rank1.recv_offsets, (std::vector<std::size_t>{0, 200, 300, 700}));
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

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::bench
