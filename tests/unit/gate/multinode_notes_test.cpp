// P11/P12: what a multi-node run's busbw means.
#include <gtest/gtest.h>

#include "harness/gate/wire_notes.hpp"

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

verdict::KeyComparison coll_key(double busbw, int nranks) {
  verdict::KeyComparison k;
  k.key =
      "coll/nccl/all_reduce/float32/sum/bytes:1073741824/ranks:" + std::to_string(nranks) + "/oop";
  k.family = "coll";
  k.nranks = nranks;
  k.busbw_now = busbw;
  return k;
}

TEST(gate_MultiNode, InterNodeRateIsBusbwScaledByNodesOverRanks) {
  // 4 nodes x 8 GPUs: busbw 360 GB/s implies >= 360 * 3/31 = 34.8 GB/s per accelerator.
  EXPECT_NEAR(inter_node_rate_GBps(360, 4, 32), 360.0 * 3 / 31, 1e-9);
  // 2 nodes x 8 GPUs: busbw overstates the wire by (n-1)/(k-1) = 15.
  EXPECT_NEAR(inter_node_rate_GBps(150, 2, 16), 10.0, 1e-9);
  EXPECT_EQ(inter_node_rate_GBps(360, 1, 8), 0);
}

TEST(gate_MultiNode, TwoNodesWarnP11AndEveryCollectiveGetsP12) {
  RunRecord run;
  run.launch.nodes = 2;
  run.launch.nranks = 16;
  verdict::Comparison c;
  c.keys.push_back(coll_key(150, 16));
  verdict::KeyComparison p2p;
  p2p.family = "p2p";
  c.keys.push_back(p2p);
  add_multinode_notes(run, c);
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_NE(c.warnings[0].find("P11"), std::string::npos);
  ASSERT_EQ(c.keys[0].notes.size(), 1u);
  EXPECT_EQ(c.keys[0].notes[0].id, "P12");
  EXPECT_NE(c.keys[0].notes[0].text.find(">= 10.0 GB/s"), std::string::npos)
      << c.keys[0].notes[0].text;
  EXPECT_TRUE(c.keys[1].notes.empty());  // not a collective
}

TEST(gate_MultiNode, OneNodeAndFourNodes) {
  RunRecord run;
  run.launch.nodes = 1;
  verdict::Comparison one;
  one.keys.push_back(coll_key(300, 8));
  add_multinode_notes(run, one);
  EXPECT_TRUE(one.warnings.empty());
  EXPECT_TRUE(one.keys[0].notes.empty());
  run.launch.nodes = 4;
  verdict::Comparison four;
  four.keys.push_back(coll_key(360, 32));
  add_multinode_notes(run, four);
  EXPECT_TRUE(four.warnings.empty());  // P11 is about two nodes only
  ASSERT_EQ(four.keys[0].notes.size(), 1u);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
