#pragma once
// The GPU side of the counter snapshot behind one narrow interface: NVML implements it
// (nvml_counter_source.hpp), tests replay recorded samples. A source is used for one launch
// window at a time: start() before the launch, sample() any number of times during it (process
// lists and clock-event reasons only, it must stay cheap), end() after it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/model/counters/counter_delta.hpp"

namespace fabricgate::counters {

struct GpuProcess {
  unsigned pid = 0;
  std::uint64_t used_memory_bytes = 0;
  std::optional<double> sm_percent;  // end() only: mean SM utilisation since start(), if given
};

struct GpuSample {
  unsigned index = 0;   // NVML index
  DeviceSample sample;  // kind "gpu", device "GPU <index>", identity = UUID
  bool processes_read = false;
  std::vector<GpuProcess> processes;
};

struct GpuSnapshot {
  bool available = false;
  std::string reason;  // why nothing was read: "NVML not found: ..."
  std::vector<GpuSample> gpus;
  std::vector<Unread> unread;  // reads that failed for the whole source (event set, ...)
};

class GpuCounterSource {
 public:
  virtual ~GpuCounterSource() = default;
  virtual GpuSnapshot start() = 0;
  virtual GpuSnapshot sample() = 0;
  virtual GpuSnapshot end() = 0;
};

}  // namespace fabricgate::counters
