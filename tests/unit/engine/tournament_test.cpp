// Round-robin schedule for node-pair tests, node layout and key-safe node names.
#include <gtest/gtest.h>

#include <set>

#include "bench/engine/node_layout.hpp"
#include "bench/engine/tournament.hpp"

namespace fabricgate::bench {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

void expect_valid(int k, const std::vector<Round>& rounds) {
  for (const Round& round : rounds) {
    std::set<int> busy;
    for (const auto& [a, b] : round) {
      EXPECT_LT(a, b);
      EXPECT_GE(a, 0);
      EXPECT_LT(b, k);
      EXPECT_TRUE(busy.insert(a).second) << "node " << a << " twice in a round";
      EXPECT_TRUE(busy.insert(b).second) << "node " << b << " twice in a round";
    }
    EXPECT_GE(busy.size(), static_cast<std::size_t>(k - k % 2)) << "every node (but the bye) plays";
  }
}

TEST(engine_Tournament, EveryPairMeetsExactlyOnce) {
  for (int k : {2, 3, 4, 5, 8, 9, 16, 33}) {
    const auto rounds = round_robin_rounds(k);
    EXPECT_EQ(rounds.size(), static_cast<std::size_t>(k % 2 == 0 ? k - 1 : k)) << k;
    expect_valid(k, rounds);
    std::set<std::pair<int, int>> met;
    for (const Round& r : rounds) {
      for (const auto& p : r) EXPECT_TRUE(met.insert(p).second) << k << ": pair met twice";
    }
    EXPECT_EQ(met.size(), static_cast<std::size_t>(k * (k - 1) / 2)) << k;
  }
}

TEST(engine_Tournament, BoundedRoundsForLargeClusters) {
  const auto rounds = round_robin_rounds(1024, 8);
  ASSERT_EQ(rounds.size(), 8u);
  expect_valid(1024, rounds);
  for (const Round& r : rounds) EXPECT_EQ(r.size(), 512u);
  EXPECT_EQ(round_robin_rounds(4, 100).size(), 3u);  // never more than k-1
}

TEST(engine_Tournament, NoPairsBelowTwoNodes) {
  EXPECT_TRUE(round_robin_rounds(1).empty());
  EXPECT_TRUE(round_robin_rounds(0).empty());
}

TEST(engine_NodeLayout, EmulatedNodesSplitRanksEvenly) {
  EXPECT_EQ(emulated_node_of(0, 4, 2), 0);
  EXPECT_EQ(emulated_node_of(1, 4, 2), 0);
  EXPECT_EQ(emulated_node_of(2, 4, 2), 1);
  EXPECT_EQ(emulated_node_of(3, 4, 4), 3);
  EXPECT_EQ(emulated_node_of(0, 4, 3), -1);  // 4 ranks do not split into 3 nodes
  EXPECT_EQ(emulated_node_of(0, 4, 8), -1);
  EXPECT_EQ(emulated_node_of(0, 4, 0), -1);
}

TEST(engine_NodeLayout, SoloJobIsOneNode) {
  SoloCommunicator solo;
  const NodeLayout l = discover_nodes(solo, "h", false);
  EXPECT_EQ(l.nodes(), 1);
  EXPECT_EQ(l.leader, std::vector<int>{0});
  EXPECT_TRUE(l.uniform());
  EXPECT_EQ(solo.gather("x", 0), std::vector<std::string>{"x"});
}

TEST(engine_NodeLayout, KeySafeNames) {
  EXPECT_EQ(key_safe_node_name("gpu-node-07"), "gpu-node-07");
  EXPECT_EQ(key_safe_node_name("n1.cluster.local"), "n1_cluster_local");
  EXPECT_EQ(key_safe_node_name("a/../b"), "a____b");
  EXPECT_EQ(key_safe_node_name(""), "unnamed");
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::bench
