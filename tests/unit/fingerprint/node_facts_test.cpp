// The compact per-node fingerprint gathered by multi-node runs, and the test-only fact override.
#include "harness/fingerprint/node_facts.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "fake_tree.hpp"
#include "gpu_inventories.hpp"

namespace fabricgate::fingerprint {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using testing::FakeTree;

TEST(fingerprint_node_facts, CompactFactsFromGpusNicsAndHost) {
  FakeTree tree;
  tree.write("proc/sys/kernel/hostname", "gpu-node-07\n");
  tree.write("proc/cpuinfo", "processor\t: 0\nmodel name\t: AMD EPYC 9B14 96-Core Processor\n");
  const std::string port = "sys/class/infiniband/mlx5_0/ports/1/";
  tree.write(port + "state", "4: ACTIVE\n");
  tree.write(port + "rate", "400 Gb/sec (4X NDR)\n");
  tree.write(port + "link_layer", "InfiniBand\n");
  tree.mkdir("sys/class/infiniband/mlx5_1");
  const RecordedGpuQuery gpus(testing::h200_x2());
  const json n = collect_node_facts({tree.root(), &gpus, false});
  EXPECT_EQ(n["hostname"], "gpu-node-07");
  const json& f = n["facts"];
  EXPECT_EQ(f["driver"], "580.159.04");
  EXPECT_EQ(f["cuda_driver"], "13.0");
  EXPECT_EQ(f["gpu_count"], "2");
  EXPECT_EQ(f["gpu_models"], "NVIDIA H200");
  EXPECT_EQ(f["nics"], "mlx5_0,mlx5_1");
  EXPECT_EQ(f["nic_links"], "mlx5_0/1 ACTIVE 400Gb/s InfiniBand");
  EXPECT_EQ(f["platform_key"], n["platform_key"]);
  EXPECT_EQ(n["platform_key"], "h200-sxm-x2-nv18");
  for (const auto& [k, v] : f.items()) EXPECT_TRUE(v.is_string()) << k;  // compared as text
}

TEST(fingerprint_node_facts, OverrideReplacesOnlyTheNamedNodesFactsAndSaysSo) {
  json n = {{"facts", {{"driver", "580"}, {"nccl", "2.28.3"}}}};
  EXPECT_FALSE(apply_fact_overrides(n, 0, "1:driver=999"));
  EXPECT_EQ(n["facts"]["driver"], "580");
  EXPECT_FALSE(n.contains("test_override"));
  EXPECT_TRUE(apply_fact_overrides(n, 1, "1:driver=999,1:nccl=2.0.0,2:driver=1"));
  EXPECT_EQ(n["facts"]["driver"], "999");
  EXPECT_EQ(n["facts"]["nccl"], "2.0.0");
  EXPECT_EQ(n["test_override"], "driver=999,nccl=2.0.0");
  EXPECT_FALSE(apply_fact_overrides(n, 1, ""));
}

TEST(fingerprint_node_facts, MalformedOverrideIsAnInputError) {
  json n = {{"facts", json::object()}};
  for (const char* bad :
       {"driver=1", "x:driver=1", "1:driver", "1:=5", ":a=b", "-1:a=b", "1x:a=b"}) {
    EXPECT_THROW(apply_fact_overrides(n, 1, bad), InputError) << bad;
  }
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::fingerprint
