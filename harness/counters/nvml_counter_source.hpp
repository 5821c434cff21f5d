#pragma once
// GpuCounterSource over the driver's NVML, dlopen()ed exactly like the fingerprint's
// NvmlGpuQuery (harness/fingerprint/nvml_gpu_query.hpp): our own declarations of the C entry
// points, every one optional (an older driver lacks newer ones; each missing or failing read is
// an Unread with NVML's reason). NVML is loaded and initialised once per process and kept: a
// launch's snapshots must cost milliseconds, not an nvmlInit each (docs/COUNTERS.md "Cost").
// On a machine without the driver every snapshot says "NVML not found: <dlerror>".
#include <memory>
#include <string>

#include "harness/counters/gpu_counter_source.hpp"

namespace fabricgate::counters {

class NvmlCounterSource final : public GpuCounterSource {
 public:
  explicit NvmlCounterSource(std::string soname = "libnvidia-ml.so.1");
  ~NvmlCounterSource() override;
  NvmlCounterSource(const NvmlCounterSource&) = delete;
  NvmlCounterSource& operator=(const NvmlCounterSource&) = delete;

  GpuSnapshot start() override;
  GpuSnapshot sample() override;
  GpuSnapshot end() override;

 private:
  struct Window;
  std::string soname_;
  std::unique_ptr<Window> window_;
};

}  // namespace fabricgate::counters
