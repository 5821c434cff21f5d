// The snapshot's cost on the machine the tests run on (docs/COUNTERS.md "Cost"): a real window
// over "/" with the real NVML source, start and end, timed in the code path (snapshot_ms). On a
// machine without a GPU it reads PSI and RDMA sysfs and names NVML's absence; on a GPU machine
// the same binary measures NVML (--gtest_filter='counters_cost*'). The budget is 50 ms a launch.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "harness/counters/launch_counters.hpp"
#include "harness/counters/nvml_counter_source.hpp"

namespace fabricgate::counters {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

TEST(counters_cost, snapshot_of_this_machine_stays_under_50_ms) {
  constexpr int kLaunches = 20;
  double worst = 0, total = 0;
  RunnerCounters last;
  for (int i = 0; i < kLaunches; ++i) {
    LaunchCounterOptions o;
    o.host_name = "this-machine";
    o.sample_period = std::chrono::milliseconds(0);
    LaunchCounterWindow window(o);
    last = window.finish();
    worst = std::max(worst, last.snapshot_ms);
    total += last.snapshot_ms;
  }
  std::size_t gpus = 0, ports = 0;
  for (const DeviceCounters& d : last.devices) {
    gpus += d.kind == "gpu" ? 1 : 0;
    ports += d.kind == "rdma" ? 1 : 0;
  }
  std::printf(
      "snapshot_ms over %d windows: mean %.3f, worst %.3f (%zu GPUs, %zu RDMA ports, %zu "
      "foreign processes)\n",
      kLaunches, total / kLaunches, worst, gpus, ports, last.foreign_processes.size());
  for (const Unread& u : last.unread)
    std::printf("  unread %s: %s\n", u.what.c_str(), u.reason.c_str());
  RecordProperty("snapshot_ms_worst", std::to_string(worst));
  EXPECT_LT(worst, 50.0);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::counters
