// A node whose driver, NCCL, CUDA, GPU count or NICs differ from the other nodes is named.
#include <gtest/gtest.h>

#include <set>

#include "core/json_file.hpp"
#include "harness/cluster/outliers.hpp"

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

NodeRecord node(const std::string& name, const std::string& driver,
                const std::string& nccl = "2.28.3",
                const std::string& links = "mlx5_0/1 ACTIVE 400Gb/s InfiniBand") {
  NodeRecord n;
  n.name = name;
  n.facts = {{"driver", driver}, {"nccl", nccl}, {"gpu_count", "8"}, {"nic_links", links}};
  return n;
}

TEST(gate_ClusterConsistency, AllEqualNodesGiveNoFinding) {
  EXPECT_TRUE(cluster::check_cluster_consistency(
                  {node("a", "580.1"), node("b", "580.1"), node("c", "580.1")})
                  .empty());
  EXPECT_TRUE(cluster::check_cluster_consistency({node("a", "580.1")}).empty());
  EXPECT_TRUE(cluster::check_cluster_consistency({}).empty());
}

TEST(gate_ClusterConsistency, TheOddNodeIsNamedWithFieldAndBothValues) {
  const auto f = cluster::check_cluster_consistency(
      {node("a", "580.1"), node("b", "535.9"), node("c", "580.1"), node("d", "580.1")});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].id, "NODE-MISMATCH");
  EXPECT_TRUE(f[0].fails_gate);
  EXPECT_EQ(f[0].node, "b");
  EXPECT_EQ(f[0].field, "driver");
  EXPECT_NE(f[0].text.find("\"535.9\""), std::string::npos) << f[0].text;
  EXPECT_NE(f[0].text.find("\"580.1\" on 3 of 4 nodes"), std::string::npos) << f[0].text;
}

TEST(gate_ClusterConsistency, EveryDifferingFactOfEveryNodeIsReported) {
  const auto f = cluster::check_cluster_consistency(
      {node("a", "580.1"), node("b", "580.1", "2.21.5"),
       node("c", "580.1", "2.28.3", "mlx5_0/1 DOWN 0Gb/s InfiniBand"), node("d", "580.1"),
       node("e", "580.1", "2.21.5")});
  ASSERT_EQ(f.size(), 3u);
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto& x : f) seen.insert({x.node, x.field});
  EXPECT_TRUE(seen.count({"b", "nccl"}));
  EXPECT_TRUE(seen.count({"e", "nccl"}));
  EXPECT_TRUE(seen.count({"c", "nic_links"}));
}

TEST(gate_ClusterConsistency, AMissingFactCountsAsADifference) {
  NodeRecord bare = node("c", "580.1");
  bare.facts.erase("gpu_count");
  const auto f = cluster::check_cluster_consistency({node("a", "580.1"), node("b", "580.1"), bare});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].node, "c");
  EXPECT_NE(f[0].text.find("(none)"), std::string::npos) << f[0].text;
}

TEST(gate_ClusterConsistency, NoMajorityNamesEveryNodeAndStillFails) {
  const auto f = cluster::check_cluster_consistency({node("a", "580.1"), node("b", "535.9")});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_TRUE(f[0].fails_gate);
  EXPECT_NE(f[0].text.find("no majority"), std::string::npos);
  EXPECT_NE(f[0].text.find("on a"), std::string::npos) << f[0].text;
  EXPECT_NE(f[0].text.find("on b"), std::string::npos) << f[0].text;
}

TEST(gate_ClusterConsistency, NodesAreReadFromRunJson) {
  const json doc = {{"run_id", "r1"},
                    {"platform", "p"},
                    {"complete", true},
                    {"launch",
                     {{"nranks", 4},
                      {"nodes", 2},
                      {"ranks_per_node", 2},
                      {"gpus_per_node", 0},
                      {"nodes_emulated", true}}},
                    {"nodes",
                     {{{"name", "h-node0"},
                       {"hostname", "h"},
                       {"emulated", true},
                       {"ranks", {0, 1}},
                       {"facts", {{"driver", ""}, {"nccl", "2.28.3"}}}},
                      {{"name", "h-node1"},
                       {"hostname", "h"},
                       {"emulated", true},
                       {"ranks", {2, 3}},
                       {"facts", {{"driver", "999"}, {"nccl", "2.28.3"}}},
                       {"test_override", "driver=999"}}}},
                    {"benchmarks", json::array()}};
  const RunRecord run = parse_run(doc, "<test>");
  EXPECT_EQ(run.launch.ranks_per_node, 2);
  EXPECT_TRUE(run.launch.nodes_emulated);
  ASSERT_EQ(run.nodes.size(), 2u);
  EXPECT_EQ(run.nodes[1].rank_count, 2u);
  EXPECT_EQ(run.nodes[1].facts.at("driver"), "999");
  EXPECT_EQ(run.nodes[1].test_override, "driver=999");
  const json bad = [&] {
    json d = doc;
    d["nodes"][0]["facts"]["driver"] = 5;
    return d;
  }();
  try {
    parse_run(bad, "<test>");
    FAIL() << "a non-string fact must be refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/nodes/0/facts/driver"), std::string::npos) << e.what();
  }
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
