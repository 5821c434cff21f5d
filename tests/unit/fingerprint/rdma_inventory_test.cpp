// ibverbs inventory from a fake /sys/class/infiniband tree.
#include "harness/fingerprint/rdma_inventory.hpp"

#include <gtest/gtest.h>

#include "fake_tree.hpp"

namespace fabricgate::fingerprint {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using testing::FakeTree;

void add_port(const FakeTree& tree, const std::string& dev, int port, const std::string& state,
              const std::string& rate, const std::string& layer) {
  const std::string dir = "sys/class/infiniband/" + dev + "/ports/" + std::to_string(port) + "/";
  tree.write(dir + "state", state + "\n");
  tree.write(dir + "rate", rate + "\n");
  tree.write(dir + "link_layer", layer + "\n");
}

TEST(fingerprint_rdma_inventory, ReadsPortsDriversAndCountsActivePorts) {
  FakeTree tree;
  add_port(tree, "mlx5_0", 1, "4: ACTIVE", "400 Gb/sec (4X NDR)", "InfiniBand");
  add_port(tree, "mlx5_0", 2, "1: DOWN", "10 Gb/sec (4X SDR)", "InfiniBand");
  tree.symlink("../../../../bus/pci/drivers/mlx5_core",
               "sys/class/infiniband/mlx5_0/device/driver");
  add_port(tree, "rdmap16s27", 1, "4: ACTIVE", "100 Gb/sec", "Unspecified");
  tree.symlink("../../../../bus/pci/drivers/efa", "sys/class/infiniband/rdmap16s27/device/driver");
  tree.mkdir("sys/class/infiniband/irdma0");  // no ports, no driver link

  const RdmaInventory inv = read_rdma_inventory(tree.root());
  ASSERT_TRUE(inv.available);
  ASSERT_EQ(inv.devices.size(), 3U);
  EXPECT_EQ(inv.devices[0].name, "irdma0");
  EXPECT_EQ(inv.devices[0].driver, "");
  EXPECT_EQ(inv.devices[0].active_ports(), 0U);
  const RdmaDevice& mlx = inv.devices[1];
  EXPECT_EQ(mlx.name, "mlx5_0");
  EXPECT_EQ(mlx.driver, "mlx5_core");
  ASSERT_EQ(mlx.ports.size(), 2U);
  EXPECT_EQ(mlx.ports[0].number, 1U);
  EXPECT_EQ(mlx.ports[0].state, "ACTIVE");
  EXPECT_DOUBLE_EQ(mlx.ports[0].rate_Gbps, 400.0);
  EXPECT_EQ(mlx.ports[0].rate, "400 Gb/sec (4X NDR)");
  EXPECT_EQ(mlx.ports[1].state, "DOWN");
  EXPECT_EQ(mlx.active_ports(), 1U);
  EXPECT_EQ(inv.devices[2].driver, "efa");
  EXPECT_EQ(inv.devices[2].ports[0].link_layer, "Unspecified");

  const json doc = to_json(inv);
  EXPECT_EQ(doc["device_count"], 3);
  EXPECT_EQ(doc["devices"][1]["active_ports"], 1);
  EXPECT_EQ(doc["devices"][1]["ports"][0]["rate_Gbps"], 400.0);
}

TEST(fingerprint_rdma_inventory, MissingOrEmptyDirectoryGivesReason) {
  FakeTree tree;
  RdmaInventory inv = read_rdma_inventory(tree.root());
  EXPECT_FALSE(inv.available);
  EXPECT_NE(inv.reason.find("does not exist"), std::string::npos) << inv.reason;
  tree.mkdir("sys/class/infiniband");
  inv = read_rdma_inventory(tree.root());
  EXPECT_FALSE(inv.available);
  EXPECT_NE(inv.reason.find("empty"), std::string::npos) << inv.reason;
}

TEST(fingerprint_rdma_inventory, SysfsValueDecoding) {
  EXPECT_EQ(port_state_name("4: ACTIVE"), "ACTIVE");
  EXPECT_EQ(port_state_name("ACTIVE"), "ACTIVE");
  EXPECT_DOUBLE_EQ(port_rate_Gbps("200 Gb/sec (4X HDR)"), 200.0);
  EXPECT_DOUBLE_EQ(port_rate_Gbps("2.5 Gb/sec (1X SDR)"), 2.5);
  EXPECT_DOUBLE_EQ(port_rate_Gbps("invalid"), 0.0);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::fingerprint
