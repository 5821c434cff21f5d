// PCIe link and NUMA facts from a fake sysfs tree (the layout of a real one, symlinks included).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "bench/fixtures/p2p/pci_sysfs.hpp"

namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fb = fabricgate::bench;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

// /sys/devices/pci0000:00/0000:00:01.0 (upstream port) / 0000:19:00.0 (GPU), linked from
// bus/pci/devices.
class P2pFakeSysfs : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ =
        fs::temp_directory_path() /
        ("fabricgate-sysfs-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    port_ = root_ / "devices" / "pci0000:00" / "0000:00:01.0";
    gpu_ = port_ / "0000:19:00.0";
    fs::create_directories(gpu_);
    fs::create_directories(root_ / "bus" / "pci" / "devices");
    fs::create_directory_symlink(fs::path("../../../devices/pci0000:00/0000:00:01.0/0000:19:00.0"),
                                 root_ / "bus" / "pci" / "devices" / "0000:19:00.0");
  }
  void TearDown() override { fs::remove_all(root_); }

  void gpu_link(const std::string& cur, const std::string& cur_w, const std::string& max,
                const std::string& max_w) {
    write(gpu_ / "current_link_speed", cur + "\n");
    write(gpu_ / "current_link_width", cur_w + "\n");
    write(gpu_ / "max_link_speed", max + "\n");
    write(gpu_ / "max_link_width", max_w + "\n");
  }

  fs::path root_, port_, gpu_;
};

}  // namespace

TEST(P2pSysfs, ParsesLinkSpeeds) {
  EXPECT_DOUBLE_EQ(*fb::parse_link_speed("32.0 GT/s PCIe\n"), 32.0);
  EXPECT_DOUBLE_EQ(*fb::parse_link_speed("8 GT/s"), 8.0);
  EXPECT_DOUBLE_EQ(*fb::parse_link_speed("2.5 GT/s PCIe"), 2.5);
  EXPECT_FALSE(fb::parse_link_speed("Unknown"));
  EXPECT_FALSE(fb::parse_link_speed("fast GT/s"));
  EXPECT_FALSE(fb::parse_link_speed(""));
}

TEST(P2pSysfs, ParsesCpuLists) {
  EXPECT_EQ(fb::parse_cpu_list("0-3,8,10-11\n"), (std::vector<int>{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_EQ(fb::parse_cpu_list("5"), (std::vector<int>{5}));
  EXPECT_TRUE(fb::parse_cpu_list("").empty());
  EXPECT_TRUE(fb::parse_cpu_list("3-1").empty());
  EXPECT_TRUE(fb::parse_cpu_list("a-b").empty());
}

TEST_F(P2pFakeSysfs, ReadsAHealthyGen5x16Link) {
  gpu_link("32.0 GT/s PCIe", "16", "32.0 GT/s PCIe", "16");
  const auto s = fb::read_pcie_link(root_, "0000:19:00.0");
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->current_gt, 32.0);
  EXPECT_EQ(s->current_width, 16);
  EXPECT_DOUBLE_EQ(s->max_gt, 32.0);
  EXPECT_EQ(s->max_width, 16);
}

TEST_F(P2pFakeSysfs, ReadsADowntrainedLink) {
  gpu_link("16.0 GT/s PCIe", "8", "32.0 GT/s PCIe", "16");
  const auto s = fb::read_pcie_link(root_, "0000:19:00.0");
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->current_gt, 16.0);
  EXPECT_EQ(s->current_width, 8);
  EXPECT_DOUBLE_EQ(s->max_gt, 32.0);
}

TEST_F(P2pFakeSysfs, UpstreamPortCapsTheMaximum) {
  // A Gen5 GPU in a Gen4 slot runs at its best possible: not downtrained.
  gpu_link("16.0 GT/s PCIe", "16", "32.0 GT/s PCIe", "16");
  write(port_ / "max_link_speed", "16.0 GT/s PCIe\n");
  write(port_ / "max_link_width", "16\n");
  const auto s = fb::read_pcie_link(root_, "0000:19:00.0");
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->max_gt, 16.0);
  EXPECT_EQ(s->max_width, 16);
}

TEST_F(P2pFakeSysfs, MissingOrUnknownFilesGiveNothing) {
  EXPECT_FALSE(fb::read_pcie_link(root_, "0000:19:00.0"));  // no link files
  EXPECT_FALSE(fb::read_pcie_link(root_, "0000:aa:00.0"));  // no device
  EXPECT_FALSE(fb::read_pcie_link(root_, ""));
  gpu_link("Unknown", "16", "32.0 GT/s PCIe", "16");
  EXPECT_FALSE(fb::read_pcie_link(root_, "0000:19:00.0"));
}

TEST_F(P2pFakeSysfs, NumaNodeAndItsCpus) {
  write(gpu_ / "numa_node", "1\n");
  write(root_ / "devices" / "system" / "node" / "node1" / "cpulist", "56-59,168\n");
  EXPECT_EQ(fb::read_numa_node(root_, "0000:19:00.0"), 1);
  EXPECT_EQ(fb::read_node_cpus(root_, 1), (std::vector<int>{56, 57, 58, 59, 168}));
  EXPECT_TRUE(fb::read_node_cpus(root_, 0).empty());
  EXPECT_TRUE(fb::read_node_cpus(root_, -1).empty());
  write(gpu_ / "numa_node", "-1\n");  // single-node machines
  EXPECT_EQ(fb::read_numa_node(root_, "0000:19:00.0"), -1);
  EXPECT_EQ(fb::read_numa_node(root_, "0000:aa:00.0"), -1);
}
}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
