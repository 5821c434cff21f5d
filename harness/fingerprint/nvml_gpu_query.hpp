#pragma once
// GpuQuery backed by the NVIDIA driver's NVML, reached with dlopen("libnvidia-ml.so.1") and our
// own declarations of the few C entry points used (NVML's C ABI is stable across drivers). No
// NVIDIA header or library is needed to build it; on a machine without the driver, query()
// returns available = false with dlerror()'s text.
#include <string>
#include <utility>

#include "harness/fingerprint/gpu_query.hpp"

namespace fabricgate::fingerprint {

class NvmlGpuQuery final : public GpuQuery {
 public:
  explicit NvmlGpuQuery(std::string soname = "libnvidia-ml.so.1") : soname_(std::move(soname)) {}
  GpuInventory query() const override;

 private:
  std::string soname_;
};

}  // namespace fabricgate::fingerprint
