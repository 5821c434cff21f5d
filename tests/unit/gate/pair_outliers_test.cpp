// Bad-node localisation: pairs far below the median, and the node all slow pairs share.
#include <gtest/gtest.h>

#include "harness/cluster/outliers.hpp"

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

BenchmarkResult pair(const std::string& a, const std::string& b, double GBps,
                     std::uint64_t bytes = 1 << 20) {
  BenchmarkResult r;
  r.key = "pairs/mpi/sendrecv/bytes:" + std::to_string(bytes) + "/nodes:" + a + "+" + b;
  r.family = "nodepairs";
  r.backend = "mpi";
  r.op = "sendrecv";
  r.bytes = bytes;
  r.nranks = 2;
  r.algbw_GBps = GBps;
  r.params = {{"nodes", {a, b}}};
  return r;
}

// All pairs of nodes n0..n<k-1>; pairs touching `bad` run at `slow`, the others at `fast`.
std::vector<BenchmarkResult> all_pairs(int k, const std::string& bad, double fast, double slow,
                                       std::uint64_t bytes = 1 << 20) {
  std::vector<BenchmarkResult> out;
  for (int i = 0; i < k; ++i) {
    for (int j = i + 1; j < k; ++j) {
      const std::string a = "n" + std::to_string(i);
      const std::string b = "n" + std::to_string(j);
      out.push_back(pair(a, b, a == bad || b == bad ? slow : fast + 0.01 * (i + j), bytes));
    }
  }
  return out;
}

std::vector<verdict::ClusterFinding> with_id(const std::vector<verdict::ClusterFinding>& f,
                                             const std::string& id) {
  std::vector<verdict::ClusterFinding> out;
  for (const auto& x : f) {
    if (x.id == id) out.push_back(x);
  }
  return out;
}

TEST(gate_PairOutliers, EvenPairsGiveNothing) {
  EXPECT_TRUE(cluster::find_pair_outliers(all_pairs(8, "", 20, 20)).empty());
}

TEST(gate_PairOutliers, FourNodesOneAtHalfSpeedIsTheSuspect) {
  // k = 4: the bad node is in 3 of the 6 pairs; the median of all pairs would sit between the
  // groups, the leave-one-out reference does not.
  const auto f = cluster::find_pair_outliers(all_pairs(4, "n2", 20, 10));
  const auto suspects = with_id(f, "SUSPECT-NODE");
  ASSERT_EQ(suspects.size(), 1u);
  EXPECT_EQ(suspects[0].node, "n2");
  EXPECT_TRUE(suspects[0].fails_gate);
  EXPECT_NE(suspects[0].text.find("0.50x"), std::string::npos) << suspects[0].text;
  EXPECT_TRUE(with_id(f, "SLOW-PAIR").empty());  // 10 is not under half the median 15
}

TEST(gate_PairOutliers, ManyNodesNameTheSlowPairsAndTheirCommonNode) {
  const auto f = cluster::find_pair_outliers(all_pairs(16, "n9", 40, 4));
  const auto suspects = with_id(f, "SUSPECT-NODE");
  ASSERT_EQ(suspects.size(), 1u);
  EXPECT_EQ(suspects[0].node, "n9");
  const auto slow = with_id(f, "SLOW-PAIR");
  EXPECT_EQ(slow.size(), 15u);
  for (const auto& s : slow) {
    EXPECT_FALSE(s.fails_gate);
    EXPECT_NE(s.node.find("n9"), std::string::npos) << s.node;
  }
}

TEST(gate_PairOutliers, ALoneSlowPairWarnsButBlamesNoNode) {
  auto results = all_pairs(6, "", 30, 30);
  results[4].algbw_GBps = 3;  // one pair's link, not a node
  const auto f = cluster::find_pair_outliers(results);
  EXPECT_TRUE(with_id(f, "SUSPECT-NODE").empty());
  ASSERT_EQ(with_id(f, "SLOW-PAIR").size(), 1u);
  EXPECT_EQ(with_id(f, "SLOW-PAIR")[0].field, results[4].key);
}

TEST(gate_PairOutliers, ANodeSlowAtOneSizeOfThreeIsNotASuspect) {
  std::vector<BenchmarkResult> r = all_pairs(6, "n1", 20, 5, 8);  // latency size: noise-prone
  for (auto& x : all_pairs(6, "", 20, 20, 1 << 20)) r.push_back(x);
  for (auto& x : all_pairs(6, "", 20, 20, 1 << 24)) r.push_back(x);
  EXPECT_TRUE(with_id(cluster::find_pair_outliers(r), "SUSPECT-NODE").empty());
}

TEST(gate_PairOutliers, TooFewPairsAndOtherFamiliesAreIgnored) {
  EXPECT_TRUE(cluster::find_pair_outliers(all_pairs(2, "n1", 20, 1)).empty());
  EXPECT_TRUE(cluster::find_pair_outliers(all_pairs(3, "n1", 20, 1)).size() <=
              2u);  // slow pairs only, no suspect
  EXPECT_TRUE(
      with_id(cluster::find_pair_outliers(all_pairs(3, "n1", 20, 1)), "SUSPECT-NODE").empty());
  auto rounds = all_pairs(6, "n0", 20, 2);
  for (auto& x : rounds) x.op = "sendrecv_round";
  EXPECT_TRUE(cluster::find_pair_outliers(rounds).empty());
  auto skipped = all_pairs(6, "n0", 20, 2);
  for (auto& x : skipped) x.status = ResultStatus::skipped;
  EXPECT_TRUE(cluster::find_pair_outliers(skipped).empty());
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
