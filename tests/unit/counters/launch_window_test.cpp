// The window around a launch with a recorded GPU source: foreign processes at the start, during
// (the sampler) and at the end, the launch's own ranks left out, throttling seen only by a
// sample, a GPU that vanishes, CUDA_VISIBLE_DEVICES, and NVML absent.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "fake_tree.hpp"
#include "harness/counters/launch_counters.hpp"
#include "harness/counters/nvml_counter_source.hpp"
#include "harness/model/counters/link_findings.hpp"

namespace fabricgate::counters {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using fingerprint::testing::FakeTree;

GpuSample gpu(unsigned index, std::uint64_t power_ns, std::vector<GpuProcess> processes) {
  GpuSample g;
  g.index = index;
  g.sample.kind = "gpu";
  g.sample.device = "GPU " + std::to_string(index);
  g.sample.identity = index == 0 ? "GPU-aaaa-0000" : "GPU-bbbb-1111";
  g.sample.counters["power_violation_ns"] = {power_ns, Overflow::wraps, 64};
  g.sample.counters["pcie_replay"] = {power_ns == 0 ? 4294967295ULL : 1ULL, Overflow::wraps, 32};
  g.processes_read = true;
  g.processes = std::move(processes);
  return g;
}

class RecordedGpus final : public GpuCounterSource {
 public:
  GpuSnapshot start() override {
    GpuSnapshot s;
    s.available = true;
    s.gpus = {gpu(0, 0, {{4242, 3ULL << 30, std::nullopt}}), gpu(1, 0, {})};
    return s;
  }
  GpuSnapshot sample() override {
    GpuSnapshot s;
    s.available = true;
    // our own rank 300 and a newcomer 5151 on GPU 0; GPU 0 hits a HW thermal slowdown
    GpuSample g = gpu(0, 0, {{300, 1ULL << 30, std::nullopt}, {5151, 1ULL << 20, std::nullopt}});
    g.sample.events = {"hw_thermal_slowdown"};
    g.sample.counters.clear();
    s.gpus = {g};
    ++samples;
    return s;
  }
  GpuSnapshot end() override {
    GpuSnapshot s;
    s.available = true;
    s.gpus = {gpu(0, 2'500'000'000ULL, {{4242, 3ULL << 30, 97.0}})};  // GPU 1 fell off the bus
    return s;
  }
  std::atomic<int> samples{0};
};

FakeTree& proc_tree() {
  static FakeTree t;
  static const bool written = [] {
    t.write("proc/100/stat", "100 (fabricgate) S 1\n");
    t.write("proc/200/stat", "200 (prterun) S 100\n");
    t.write("proc/300/stat", "300 (fabricgate-bench) S 200\n");
    t.write("proc/4242/stat", "4242 (python3) S 1\n");
    t.write("proc/4242/comm", "python3\n");
    t.write("proc/5151/stat", "5151 (gemm) S 1\n");
    t.write("proc/5151/comm", "gemm\n");
    return true;
  }();
  (void)written;
  return t;
}

TEST(counters_launch_window, foreign_processes_throttling_and_a_vanished_gpu) {
  auto source = std::make_shared<RecordedGpus>();
  LaunchCounterOptions o;
  o.root = proc_tree().root();
  o.host_name = "runner-1";
  o.own_pid = 100;
  o.sample_period = std::chrono::milliseconds(2);
  o.gpu = source;
  LaunchCounterWindow window(o);
  for (int i = 0; i < 2500 && source->samples.load() < 2; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  ASSERT_GE(source->samples.load(), 1);
  const RunnerCounters c = window.finish();
  EXPECT_TRUE(c.present);
  EXPECT_TRUE(c.processes_checked);
  EXPECT_GE(c.snapshot_ms, 0);
  ASSERT_EQ(c.foreign_processes.size(), 2U);  // 300 is our rank (a descendant of 100)
  const ForeignProcess& gemm_python = c.foreign_processes[0];
  EXPECT_EQ(gemm_python.pid, 4242U);
  EXPECT_EQ(gemm_python.name, "python3");
  EXPECT_EQ(gemm_python.gpu_index, 0U);
  EXPECT_EQ(gemm_python.gpu_uuid, "GPU-aaaa-0000");
  EXPECT_EQ(gemm_python.used_memory_bytes, 3ULL << 30);
  ASSERT_TRUE(gemm_python.sm_percent.has_value());
  EXPECT_EQ(*gemm_python.sm_percent, 97.0);
  EXPECT_EQ(gemm_python.seen, "start+end");
  EXPECT_EQ(c.foreign_processes[1].pid, 5151U);
  EXPECT_EQ(c.foreign_processes[1].seen, "during");

  const DeviceCounters* gpu0 = nullptr;
  const DeviceCounters* gpu1 = nullptr;
  for (const DeviceCounters& d : c.devices) {
    if (d.device == "GPU 0") gpu0 = &d;
    if (d.device == "GPU 1") gpu1 = &d;
  }
  ASSERT_NE(gpu0, nullptr);
  ASSERT_NE(gpu1, nullptr);
  EXPECT_TRUE(gpu1->vanished);
  EXPECT_EQ(gpu0->counter("power_violation_ns")->delta, 2'500'000'000ULL);
  // pcie_replay 2^32 - 1 -> 1 through zero: 2
  EXPECT_EQ(gpu0->counter("pcie_replay")->delta, 2U);
  EXPECT_TRUE(gpu0->has_event("hw_thermal_slowdown"));  // seen only by a sample
  const std::vector<std::string> notes = throttle_notes(c);
  ASSERT_EQ(notes.size(), 1U);
  EXPECT_EQ(notes[0].rfind("GPU 0 (GPU-aaaa-0000): HW thermal slowdown; power-capped 2.5 s", 0), 0U)
      << notes[0];
}

TEST(counters_launch_window, visible_devices_pick_the_launch_gpus) {
  const std::vector<GpuSample> gpus = {gpu(0, 0, {}), gpu(1, 0, {})};
  EXPECT_EQ(launch_gpus("", gpus), (std::vector<unsigned>{0, 1}));
  EXPECT_EQ(launch_gpus("1", gpus), (std::vector<unsigned>{1}));
  EXPECT_EQ(launch_gpus("GPU-bbbb", gpus), (std::vector<unsigned>{1}));
  EXPECT_EQ(launch_gpus("1, 0", gpus), (std::vector<unsigned>{1, 0}));
  EXPECT_EQ(launch_gpus("MIG-1234", gpus), (std::vector<unsigned>{0, 1}));  // cannot map: all
}

TEST(counters_launch_window, a_process_on_another_gpu_is_not_the_launchs_load) {
  auto source = std::make_shared<RecordedGpus>();
  LaunchCounterOptions o;
  o.root = proc_tree().root();
  o.own_pid = 100;
  o.visible_devices = "1";  // 4242 and 5151 are on GPU 0
  o.sample_period = std::chrono::milliseconds(0);
  o.gpu = source;
  LaunchCounterWindow window(o);
  const RunnerCounters c = window.finish();
  EXPECT_TRUE(c.foreign_processes.empty());
  for (const DeviceCounters& d : c.devices) EXPECT_NE(d.device, "GPU 0");
}

TEST(counters_launch_window, without_nvml_the_counters_say_why_and_the_rest_is_read) {
  LaunchCounterOptions o;
  FakeTree t;
  t.write("proc/pressure/cpu", "some avg10=0 avg60=0 avg300=0 total=10\n");
  o.root = t.root();
  o.host_name = "cpu-box";
  o.gpu = std::make_shared<NvmlCounterSource>("libnvidia-ml-absent-for-test.so.1");
  LaunchCounterWindow window(o);
  const RunnerCounters c = window.finish();
  ASSERT_FALSE(c.unread.empty());
  EXPECT_EQ(c.unread[0].what, "nvml");
  EXPECT_EQ(c.unread[0].reason.rfind("counters not read: NVML not found: ", 0), 0U)
      << c.unread[0].reason;
  EXPECT_FALSE(c.processes_checked);
  ASSERT_EQ(c.devices.size(), 1U);  // the host's PSI
  EXPECT_EQ(c.devices[0].kind, "host");
  EXPECT_EQ(c.devices[0].counter("psi_cpu_some_us")->delta, 0U);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::counters
