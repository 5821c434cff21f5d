// Host facts from a fake /proc, /sys and /etc tree.
#include "harness/fingerprint/host_facts.hpp"

#include <gtest/gtest.h>

#include "fake_tree.hpp"

namespace fabricgate::fingerprint {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using testing::FakeTree;

constexpr const char* kCpuinfo =
    "processor\t: 0\nmodel name\t: AMD EPYC 9B14 96-Core Processor\nphysical id\t: 0\n"
    "core id\t\t: 0\n\n"
    "processor\t: 1\nmodel name\t: AMD EPYC 9B14 96-Core Processor\nphysical id\t: 0\n"
    "core id\t\t: 0\n\n"
    "processor\t: 2\nmodel name\t: AMD EPYC 9B14 96-Core Processor\nphysical id\t: 1\n"
    "core id\t\t: 0\n\n";

TEST(fingerprint_host_facts, ReadsFakeTree) {
  FakeTree tree;
  tree.write("proc/cpuinfo", kCpuinfo);
  tree.write("proc/meminfo", "MemTotal:       16318480 kB\nMemFree: 1 kB\n");
  tree.write("proc/sys/kernel/hostname", "node-17\n");
  tree.write("proc/sys/kernel/osrelease", "6.8.0-48-generic\n");
  tree.write("etc/os-release",
             "NAME=\"Ubuntu\"\nVERSION_ID=\"24.04\"\nID=ubuntu\n"
             "PRETTY_NAME=\"Ubuntu 24.04.1 LTS\"\n");
  tree.mkdir("sys/devices/system/node/node0");
  tree.mkdir("sys/devices/system/node/node1");
  tree.mkdir("sys/devices/system/node/power");  // not a node

  const HostFacts host = read_host_facts(tree.root());
  EXPECT_EQ(host.hostname, "node-17");
  EXPECT_EQ(host.cpu_model, "AMD EPYC 9B14 96-Core Processor");
  EXPECT_EQ(host.logical_cores, 3U);
  EXPECT_EQ(host.physical_cores, 2U);  // (socket 0, core 0) twice = hyperthreads
  EXPECT_EQ(host.sockets, 2U);
  EXPECT_EQ(host.numa_nodes, 2U);
  EXPECT_EQ(host.memory_bytes, 16318480ULL * 1024ULL);
  EXPECT_EQ(host.os_pretty_name, "Ubuntu 24.04.1 LTS");
  EXPECT_EQ(host.os_id, "ubuntu");
  EXPECT_EQ(host.os_version_id, "24.04");
  EXPECT_EQ(host.kernel_release, "6.8.0-48-generic");
  EXPECT_FALSE(host.glibc.empty());  // the running process's glibc

  const json doc = to_json(host);
  EXPECT_EQ(doc["os"]["version_id"], "24.04");
  EXPECT_EQ(doc["kernel"]["release"], "6.8.0-48-generic");
  EXPECT_EQ(doc["numa_nodes"], 2);
}

TEST(fingerprint_host_facts, ArmCpuinfoAndMissingFiles) {
  FakeTree tree;
  tree.write("proc/cpuinfo", "processor\t: 0\nBogoMIPS\t: 50\n\nprocessor\t: 1\n");
  const HostFacts host = read_host_facts(tree.root());
  EXPECT_EQ(host.logical_cores, 2U);
  EXPECT_EQ(host.physical_cores, 2U);
  EXPECT_EQ(host.cpu_model, "");
  EXPECT_EQ(host.numa_nodes, 1U);  // no node directories: a non-NUMA kernel is one node
  EXPECT_EQ(host.memory_bytes, 0U);
  EXPECT_EQ(host.os_pretty_name, "");
}

TEST(fingerprint_host_facts, OsReleaseQuoting) {
  const std::string text = "ID='debian'\nVERSION_ID=\"12\"\nPRETTY_NAME=Plain\n";
  EXPECT_EQ(os_release_field(text, "ID"), "debian");
  EXPECT_EQ(os_release_field(text, "VERSION_ID"), "12");
  EXPECT_EQ(os_release_field(text, "PRETTY_NAME"), "Plain");
  EXPECT_EQ(os_release_field(text, "VERSION"), "");
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::fingerprint
