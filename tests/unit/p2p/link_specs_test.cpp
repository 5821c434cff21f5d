// Which spec a measurement is compared with, from what the platform query and sysfs found.
#include <gtest/gtest.h>

#include "bench/fixtures/p2p/link_specs.hpp"

namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fb = fabricgate::bench;

namespace {

fb::CopyDeviceInfo gpu(const std::string& bus, int major = 9, int minor = 0) {
  fb::CopyDeviceInfo d;
  d.name = "NVIDIA H200";
  d.pci_bus_id = bus;
  d.cc_major = major;
  d.cc_minor = minor;
  return d;
}

// Two H200s joined directly by `links` NVLinks.
fb::CopyPlatform nv_pair(int links) {
  fb::CopyPlatform p;
  p.devices = {gpu("0000:19:00.0"), gpu("0000:3b:00.0")};
  for (int i = 0; i < links; ++i) {
    p.devices[0].nvlink_remotes.push_back("0000:3b:00.0");
    p.devices[1].nvlink_remotes.push_back("0000:19:00.0");
  }
  p.peer_access = {{false, true}, {true, false}};
  return p;
}

fb::PcieStates gen5x16(std::size_t n) {
  return fb::PcieStates(n, fb::PcieLinkState{32.0, 16, 32.0, 16});
}

}  // namespace

TEST(P2pLinkSpecs, DirectNvLinkPair) {
  const auto p = nv_pair(18);
  EXPECT_EQ(fb::nvlinks_between(p, 0, 1), 18);
  EXPECT_EQ(fb::nvlinks_between(p, 0, 0), 0);
  const auto s = fb::pair_spec(p, gen5x16(2), 0, 1);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->name, "NVLink4x18");
  EXPECT_DOUBLE_EQ(s->per_direction_GBps, 450.0);
}

TEST(P2pLinkSpecs, ALinkDownOnOneSideTakesTheSmallerCount) {
  auto p = nv_pair(18);
  p.devices[1].nvlink_remotes.pop_back();
  const auto s = fb::pair_spec(p, gen5x16(2), 0, 1);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->name, "NVLink4x17");
  EXPECT_DOUBLE_EQ(s->per_direction_GBps, 425.0);
}

TEST(P2pLinkSpecs, MeshCountsOnlyLinksToThePeer) {
  fb::CopyPlatform p;
  p.devices = {gpu("0000:01:00.0", 8), gpu("0000:02:00.0", 8), gpu("0000:03:00.0", 8)};
  // GPU 0: 4 links to GPU 1, 8 to GPU 2 (a direct mesh without switches).
  for (int i = 0; i < 4; ++i) p.devices[0].nvlink_remotes.push_back("0000:02:00.0");
  for (int i = 0; i < 8; ++i) p.devices[0].nvlink_remotes.push_back("0000:03:00.0");
  for (int i = 0; i < 4; ++i) p.devices[1].nvlink_remotes.push_back("0000:01:00.0");
  for (int i = 0; i < 8; ++i) p.devices[2].nvlink_remotes.push_back("0000:01:00.0");
  EXPECT_EQ(fb::nvlinks_between(p, 0, 1), 4);
  EXPECT_EQ(fb::nvlinks_between(p, 0, 2), 8);
  EXPECT_DOUBLE_EQ(fb::pair_spec(p, gen5x16(3), 0, 1)->per_direction_GBps,
                   100.0);  // NVLink3: 25 GB/s a link
  EXPECT_DOUBLE_EQ(fb::single_gpu_spec(p, gen5x16(3), 0)->per_direction_GBps,
                   300.0);  // all 12 links out of GPU 0
}

TEST(P2pLinkSpecs, NvSwitchLinksReachEveryPeer) {
  fb::CopyPlatform p;
  p.devices = {gpu("0000:19:00.0"), gpu("0000:3b:00.0"), gpu("0000:4c:00.0")};
  for (auto& d : p.devices) {
    for (int i = 0; i < 18; ++i)
      d.nvlink_remotes.push_back("0000:" + std::to_string(80 + i % 4) + ":00.0");  // switches
  }
  EXPECT_EQ(fb::nvlinks_between(p, 0, 2), 18);
  EXPECT_EQ(fb::pair_spec(p, gen5x16(3), 0, 2)->name, "NVLink4x18");
  EXPECT_EQ(fb::single_gpu_spec(p, gen5x16(3), 1)->name, "NVLink4x18");
}

TEST(P2pLinkSpecs, NoNvLinkFallsBackToTheSlowerPcieEnd) {
  auto p = nv_pair(0);
  fb::PcieStates pcie = gen5x16(2);
  pcie[1] = fb::PcieLinkState{16.0, 16, 16.0, 16};
  const auto s = fb::pair_spec(p, pcie, 0, 1);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->name, "PCIe Gen4 x16");
  EXPECT_FALSE(fb::pair_spec(p, fb::PcieStates(2), 0, 1));  // PCIe unknown: no spec
}

TEST(P2pLinkSpecs, WithoutNvmlThereIsNoGpuToGpuSpec) {
  auto p = nv_pair(0);
  p.nvml_reason = "NVML (libnvidia-ml.so.1) not found: NVLink counts unknown";
  EXPECT_FALSE(fb::pair_spec(p, gen5x16(2), 0, 1));  // not a PCIe figure for a maybe-NVLink pair
  EXPECT_FALSE(fb::single_gpu_spec(p, gen5x16(2), 0));
  EXPECT_TRUE(fb::gpu_pcie_spec(gen5x16(2), 0));  // host copies still have theirs
}

TEST(P2pLinkSpecs, HostLinkSpecUsesTheMaximumNotTheCurrentState) {
  fb::PcieStates pcie{fb::PcieLinkState{16.0, 8, 32.0, 16}};
  const auto s = fb::gpu_pcie_spec(pcie, 0);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->name, "PCIe Gen5 x16");
  EXPECT_FALSE(fb::gpu_pcie_spec(pcie, 1));
  EXPECT_FALSE(fb::gpu_pcie_spec(pcie, -1));
}

TEST(P2pLinkSpecs, P16DowntrainWarning) {
  EXPECT_FALSE(fb::pcie_downtrain_note({32.0, 16, 32.0, 16}));
  const auto gen = fb::pcie_downtrain_note({16.0, 16, 32.0, 16});
  ASSERT_TRUE(gen);
  EXPECT_EQ(gen->id, "P16");
  EXPECT_EQ(gen->level, "warn");
  EXPECT_NE(gen->text.find("Gen4 x16 below its maximum Gen5 x16"), std::string::npos) << gen->text;
  EXPECT_NE(gen->text.find("31.5 instead of 63.0 GB/s"), std::string::npos) << gen->text;
  const auto width = fb::pcie_downtrain_note({32.0, 8, 32.0, 16});
  ASSERT_TRUE(width);
  EXPECT_NE(width->text.find("Gen5 x8"), std::string::npos);
}

TEST(P2pLinkSpecs, SpecNoteIsAP07Note) {
  const auto n =
      fb::spec_note(55.4, *fabricgate::pcie_spec(5, 16), fabricgate::SpecDirection::unidirectional);
  EXPECT_EQ(n.id, "P07");
  EXPECT_EQ(n.level, "note");
  EXPECT_EQ(n.text, "55.4 GB/s = 87.9 % of the 63.0 GB/s unidirectional PCIe Gen5 x16 spec (P07)");
}
}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
