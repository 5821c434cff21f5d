#pragma once
// The counter snapshot around one launch (docs/COUNTERS.md): constructed just before the bench
// starts (GPU, RDMA and PSI readings, the GPUs' compute processes), sampling the GPUs' process
// lists and clock-event reasons every `sample_period` on a thread of its own while the launch
// runs (a foreign process that starts after the first snapshot, a throttle that ends before the
// last), and finish() after it ends: the deltas and the foreign processes as RunnerCounters.
// Nothing here throws for a counter it cannot read; it is named in `unread` with the reason.
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "harness/counters/gpu_counter_source.hpp"
#include "harness/model/counters/counter_record.hpp"

namespace fabricgate::counters {

struct LaunchCounterOptions {
  std::filesystem::path root = "/";  // /sys and /proc are read under it
  std::string host_name;
  unsigned own_pid = 0;         // 0: this process; the ranks descend from it
  std::filesystem::path bench;  // srun: the executable its tasks run (empty: no exe rule)
  // CUDA_VISIBLE_DEVICES as the ranks see it: NVML indices or UUIDs (prefixes). Empty, or an
  // entry that matches no GPU (a MIG id): every GPU of the host is the launch's.
  std::string visible_devices;
  std::chrono::milliseconds sample_period{2000};  // 0: no sampling thread
  std::shared_ptr<GpuCounterSource> gpu;          // null: NVML
};

// Is `process` one of the launch's own? (Exposed for tests.)
struct OwnProcesses {
  std::filesystem::path root;
  unsigned own_pid = 0;
  std::filesystem::path bench;
  bool is_own(unsigned pid) const;
};

// The GPUs CUDA_VISIBLE_DEVICES selects among `gpus` (by NVML index or UUID prefix); all of them
// when it is empty or names one that is not there.
std::vector<unsigned> launch_gpus(const std::string& visible_devices,
                                  const std::vector<GpuSample>& gpus);

class LaunchCounterWindow {
 public:
  explicit LaunchCounterWindow(LaunchCounterOptions options);
  ~LaunchCounterWindow();
  LaunchCounterWindow(const LaunchCounterWindow&) = delete;
  LaunchCounterWindow& operator=(const LaunchCounterWindow&) = delete;

  // The end snapshot and the deltas; call once, after the launch ended.
  RunnerCounters finish();

 private:
  void note_processes(const GpuSnapshot& snap, const char* when);
  void sampler();
  void stop_sampler();

  LaunchCounterOptions o_;
  OwnProcesses own_;
  std::chrono::steady_clock::time_point started_;
  double cost_ms_ = 0;
  GpuSnapshot gpu_start_;
  std::vector<unsigned> launch_gpus_;
  std::vector<DeviceSample> other_start_;  // RDMA ports and the host
  std::vector<Unread> unread_;

  std::mutex mutex_;  // guards what the sampler adds below
  std::map<std::pair<unsigned, unsigned>, ForeignProcess> foreign_;  // (pid, gpu index)
  std::map<unsigned, std::vector<std::string>> sampled_events_;      // by GPU index
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace fabricgate::counters
