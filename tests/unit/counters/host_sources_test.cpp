// PSI deltas and the launch's own processes, from fake /proc trees.
#include <gtest/gtest.h>

#include "fake_tree.hpp"
#include "harness/counters/process_tree.hpp"
#include "harness/counters/psi_counters.hpp"

namespace fabricgate::counters {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using fingerprint::testing::FakeTree;

TEST(counters_psi, totals_of_some_and_full) {
  const auto t = parse_psi_totals(
      "some avg10=1.00 avg60=0.50 avg300=0.10 total=123456\n"
      "full avg10=0.00 avg60=0.00 avg300=0.00 total=789\n");
  ASSERT_EQ(t.size(), 2U);
  EXPECT_EQ(t.at("some"), 123456U);
  EXPECT_EQ(t.at("full"), 789U);
  EXPECT_TRUE(parse_psi_totals("some avg10=1.00\nnonsense total=5\n").empty());
}

TEST(counters_psi, deltas_over_a_launch_and_a_missing_file) {
  FakeTree start, end;
  start.write("proc/pressure/cpu",
              "some avg10=0 avg60=0 avg300=0 total=1000\n"
              "full avg10=0 avg60=0 avg300=0 total=400\n");
  end.write("proc/pressure/cpu",
            "some avg10=9 avg60=3 avg300=1 total=251000\n"
            "full avg10=0 avg60=0 avg300=0 total=400\n");
  start.write("proc/pressure/io", "some avg10=0 avg60=0 avg300=0 total=50\n");
  end.write("proc/pressure/io", "some avg10=0 avg60=0 avg300=0 total=2050\n");
  const DeviceSample a = read_psi_sample(start.root(), "runner-1");
  const DeviceSample b = read_psi_sample(end.root(), "runner-1");
  EXPECT_EQ(a.kind, "host");
  EXPECT_EQ(a.device, "runner-1");
  const std::vector<DeviceCounters> d = device_deltas({a}, {b});
  ASSERT_EQ(d.size(), 1U);
  EXPECT_EQ(d[0].counter("psi_cpu_some_us")->delta, 250000U);
  EXPECT_EQ(d[0].counter("psi_cpu_full_us")->delta, 0U);
  EXPECT_EQ(d[0].counter("psi_io_some_us")->delta, 2000U);
  ASSERT_EQ(d[0].unread.size(), 1U);  // no /proc/pressure/memory in the fake tree
  EXPECT_EQ(d[0].unread[0].what, "psi_memory");
  EXPECT_NE(d[0].unread[0].reason.find("No such file"), std::string::npos) << d[0].unread[0].reason;
}

TEST(counters_process_tree, descendants_follow_the_parent_chain) {
  FakeTree t;
  t.write("proc/100/stat", "100 (fabricgate) S 1 100 100 0 -1\n");
  t.write("proc/200/stat", "200 (prterun) S 100 100 100 0 -1\n");
  // comm with a space and a ')' of its own: the last ')' ends it
  t.write("proc/300/stat", "300 (bench (rank) 0) S 200 100 100 0 -1\n");
  t.write("proc/400/stat", "400 (python3) S 1 400 400 0 -1\n");
  t.write("proc/400/comm", "python3\n");
  t.write("proc/self/stat", "not a pid directory\n");
  EXPECT_EQ(descendants_of(t.root(), 100), (std::set<unsigned>{100, 200, 300}));
  EXPECT_EQ(descendants_of(t.root(), 400), (std::set<unsigned>{400}));
  EXPECT_TRUE(descends_from(t.root(), 300, 100));
  EXPECT_TRUE(descends_from(t.root(), 100, 100));
  EXPECT_FALSE(descends_from(t.root(), 400, 100));
  EXPECT_FALSE(descends_from(t.root(), 999, 100));  // gone: not ours
  EXPECT_EQ(process_name(t.root(), 400), "python3");
  EXPECT_EQ(process_name(t.root(), 999), "");
}

TEST(counters_process_tree, a_cycle_in_the_table_does_not_hang) {
  FakeTree t;
  t.write("proc/10/stat", "10 (a) S 11\n");
  t.write("proc/11/stat", "11 (b) S 10\n");
  EXPECT_EQ(descendants_of(t.root(), 5), (std::set<unsigned>{5}));
  EXPECT_FALSE(descends_from(t.root(), 10, 5));
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::counters
