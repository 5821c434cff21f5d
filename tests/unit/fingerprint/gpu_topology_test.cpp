// Topology matrix, NVLink counting (direct and through NVSwitch), published NVLink rates (P17)
// and PCIe downtraining (P16), all from recorded NVML-like inventories.
#include "harness/fingerprint/gpu_topology.hpp"

#include <gtest/gtest.h>

#include "fake_tree.hpp"
#include "gpu_inventories.hpp"
#include "harness/fingerprint/gpu_section.hpp"

namespace fabricgate::fingerprint {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using testing::FakeTree;

TEST(fingerprint_gpu_topology, TwoH200ThroughNvSwitchAreNV18) {
  const auto topology = derive_topology(testing::h200_x2());
  EXPECT_EQ(topology.label, "NV18");
  EXPECT_EQ(topology.min_pair_nvlinks, 18U);
  EXPECT_TRUE(topology.any_active_nvlink);
  EXPECT_EQ(topology.matrix[0][0], "X");
  EXPECT_EQ(topology.matrix[0][1], "NV18");
  EXPECT_EQ(topology.matrix[1][0], "NV18");
}

TEST(fingerprint_gpu_topology, EightH100EveryPairNV18) {
  const auto topology = derive_topology(testing::h100_x8());
  ASSERT_EQ(topology.matrix.size(), 8U);
  for (std::size_t i = 0; i < 8; ++i) {
    for (std::size_t j = 0; j < 8; ++j) {
      EXPECT_EQ(topology.matrix[i][j], i == j ? "X" : "NV18") << i << "," << j;
    }
  }
  EXPECT_EQ(topology.label, "NV18");
}

TEST(fingerprint_gpu_topology, PcieOnlyPairShowsCommonAncestor) {
  auto inv = testing::pcie_pair();
  const auto sys = derive_topology(inv);
  EXPECT_EQ(sys.label, "SYS");
  EXPECT_EQ(sys.min_pair_nvlinks, 0U);
  EXPECT_FALSE(sys.any_active_nvlink);
  EXPECT_EQ(sys.matrix[0][1], "SYS");
  inv.common_ancestor = {{-1, 10}, {10, -1}};
  EXPECT_EQ(derive_topology(inv).matrix[1][0], "PIX");
  inv.common_ancestor = {{-1, 30}, {30, -1}};
  EXPECT_EQ(derive_topology(inv).label, "PHB");
}

TEST(fingerprint_gpu_topology, DirectLinksCountPerPeer) {
  // A100-style direct mesh without NVSwitch: 0-1 joined by 4 links, 0-2 and 1-2 by 2, so the
  // weakest pair decides the label; remote-type "unknown" with a matching bus id is a GPU.
  GpuInventory inv =
      testing::machine(3, "NVIDIA A100-SXM4-80GB", 0, testing::kNode, testing::kAmpere);
  const auto link = [&](std::size_t from, std::size_t to, unsigned count, NvLinkRemote remote) {
    for (unsigned k = 0; k < count; ++k) {
      auto& links = inv.devices[from].active_nvlinks;
      links.push_back({static_cast<unsigned>(links.size()), 4, remote, inv.devices[to].pci_bus_id});
    }
  };
  link(0, 1, 4, NvLinkRemote::gpu);
  link(1, 0, 4, NvLinkRemote::unknown);
  link(0, 2, 2, NvLinkRemote::gpu);
  link(2, 0, 2, NvLinkRemote::gpu);
  link(1, 2, 2, NvLinkRemote::gpu);
  link(2, 1, 2, NvLinkRemote::gpu);
  const auto topology = derive_topology(inv);
  EXPECT_EQ(topology.matrix[0][1], "NV4");
  EXPECT_EQ(topology.matrix[1][0], "NV4");
  EXPECT_EQ(topology.matrix[0][2], "NV2");
  EXPECT_EQ(topology.label, "NV2");
  EXPECT_EQ(topology.min_pair_nvlinks, 2U);
}

TEST(fingerprint_gpu_topology, PairWithoutNvlinkMakesLabelPcie) {
  GpuInventory inv = testing::machine(3, "NVIDIA H100", 0, testing::kNode);
  inv.devices[0].active_nvlinks.push_back({0, 6, NvLinkRemote::gpu, inv.devices[1].pci_bus_id});
  inv.devices[1].active_nvlinks.push_back({0, 6, NvLinkRemote::gpu, inv.devices[0].pci_bus_id});
  const auto topology = derive_topology(inv);
  EXPECT_EQ(topology.matrix[0][1], "NV1");
  EXPECT_EQ(topology.matrix[0][2], "NODE");
  EXPECT_EQ(topology.min_pair_nvlinks, 0U);
  EXPECT_EQ(topology.label, "NODE");
}

TEST(fingerprint_gpu_topology, SingleAndNoGpu) {
  EXPECT_EQ(derive_topology(testing::machine(1, "NVIDIA H200", 18, testing::kSys)).label, "single");
  EXPECT_EQ(derive_topology(GpuInventory{}).label, "");
}

TEST(fingerprint_gpu_topology, SysfsAddressSpelling) {
  EXPECT_EQ(sysfs_pci_address("00000000:19:00.0"), "0000:19:00.0");
  EXPECT_EQ(sysfs_pci_address("0000:AB:00.0"), "0000:ab:00.0");
}

TEST(fingerprint_nvlink_rate, PublishedAggregateNotSignallingSum) {  // P17
  const auto rate = nvlink_rate(testing::kHopper, testing::kNvmlNvLink4);
  ASSERT_TRUE(rate.has_value());
  EXPECT_EQ(rate->generation, 4U);
  EXPECT_DOUBLE_EQ(rate->per_link_GBps_per_direction * 18, 450.0);
  // nvidia-smi nvlink -s prints 26.562 GB/s per link; 18 of those would claim 478 GB/s.
  EXPECT_LT(rate->per_link_GBps_per_direction * 18, 26.562 * 18);
}

TEST(fingerprint_nvlink_rate, ArchitectureWinsOverMisreportedVersion) {
  // NVML has reported NVLink "5.0" (code 7) on Hopper: the architecture decides.
  const auto rate = nvlink_rate(testing::kHopper, 7);
  ASSERT_TRUE(rate.has_value());
  EXPECT_EQ(rate->generation, 4U);
  EXPECT_EQ(rate->source, "architecture");
  const auto from_version = nvlink_rate(0, 7);
  ASSERT_TRUE(from_version.has_value());
  EXPECT_EQ(from_version->generation, 5U);
  EXPECT_DOUBLE_EQ(from_version->per_link_GBps_per_direction, 50.0);
  EXPECT_EQ(from_version->source, "nvml_version");
  EXPECT_FALSE(nvlink_rate(0, 0).has_value());
  EXPECT_EQ(nvml_nvlink_version_name(6), "4.0");
  EXPECT_EQ(nvml_nvlink_version_name(3), "2.2");
}

TEST(fingerprint_pcie_downtrain, Gen4x8OnGen5x16IsP16Warning) {
  GpuInventory inv = testing::h200_x2();
  inv.devices[1].pcie = PcieLink{4, 5, 8, 16};
  EXPECT_FALSE(pcie_downtrain_warning(inv.devices[0], 0).has_value());
  const auto warning = pcie_downtrain_warning(inv.devices[1], 1);
  ASSERT_TRUE(warning.has_value());
  EXPECT_NE(warning->find("Gen4 x8"), std::string::npos) << *warning;
  EXPECT_NE(warning->find("Gen5 x16"), std::string::npos) << *warning;
  // Width does not change with power saving: this is a real downtrain, no idle caveat.
  EXPECT_EQ(warning->find("idle"), std::string::npos) << *warning;
  GpuRecord narrow = inv.devices[0];
  narrow.pcie = PcieLink{5, 5, 8, 16};  // right generation, half the lanes
  ASSERT_TRUE(pcie_downtrain_warning(narrow, 0).has_value());
  narrow.pcie = PcieLink{5, 5, 16, 8};  // wider than "max": NVML quirk, not a downtrain
  EXPECT_FALSE(pcie_downtrain_warning(narrow, 0).has_value());

  FakeTree tree;
  const json section = gpu_section(inv, derive_topology(inv), tree.root());
  EXPECT_FALSE(section["devices"][0]["pcie"]["downtrained"].get<bool>());
  EXPECT_TRUE(section["devices"][1]["pcie"]["downtrained"].get<bool>());
  ASSERT_EQ(section["notes"].size(), 1U);
  EXPECT_EQ(section["notes"][0]["id"], "P16");
  EXPECT_EQ(section["notes"][0]["level"], "warn");
}

TEST(fingerprint_pcie_downtrain, GenerationOnlyDropMentionsIdlePowerSaving) {
  GpuRecord g = testing::gpu("NVIDIA H200", 6, testing::kHopper);
  g.pcie = PcieLink{1, 5, 16, 16};
  const auto warning = pcie_downtrain_warning(g, 0);
  ASSERT_TRUE(warning.has_value());
  EXPECT_NE(warning->find("idle"), std::string::npos);
  g.pcie = PcieLink{0, 0, 0, 0};  // NVML could not tell: no warning invented
  EXPECT_FALSE(pcie_downtrain_warning(g, 0).has_value());
}

TEST(fingerprint_gpu_section, NvlinkFiguresAndNumaFromSysfs) {
  FakeTree tree;
  tree.write("sys/bus/pci/devices/0000:06:00.0/numa_node", "1\n");
  tree.write("sys/bus/pci/devices/0000:06:00.0/local_cpulist", "48-95\n");
  tree.write("sys/bus/pci/devices/0000:07:00.0/numa_node", "-1\n");
  const auto inv = testing::h200_x2();
  const json section = gpu_section(inv, derive_topology(inv), tree.root());
  EXPECT_TRUE(section["available"].get<bool>());
  EXPECT_EQ(section["cuda_driver_version"], "13.0");
  const json& gpu0 = section["devices"][0];
  EXPECT_EQ(gpu0["numa_node"], 1);
  EXPECT_EQ(gpu0["cpu_affinity"], "48-95");
  EXPECT_TRUE(section["devices"][1]["numa_node"].is_null());  // -1: unknown, not node -1
  EXPECT_EQ(gpu0["nvlink"]["active_links"], 18);
  EXPECT_DOUBLE_EQ(gpu0["nvlink"]["aggregate_GBps_per_direction"].get<double>(), 450.0);
  EXPECT_DOUBLE_EQ(gpu0["nvlink"]["aggregate_GBps_bidirectional"].get<double>(), 900.0);
  EXPECT_EQ(gpu0["nvlink"]["links"].size(), 18U);
  EXPECT_EQ(gpu0["nvlink"]["links"][0]["remote"], "nvswitch");
  EXPECT_EQ(section["topology"]["matrix"][0][1], "NV18");
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::fingerprint
