// Built when fabricgate is configured without CUDA: device memory is never available.
#include "bench/backends/cuda/gpu_memory.hpp"

namespace fabricgate::bench {
std::unique_ptr<GpuMemory> allocate_gpu_memory(int /*device*/, std::size_t /*bytes*/,
                                               std::string& reason) {
  reason = "fabricgate-bench was built without CUDA (FABRICGATE_WITH_CUDA=OFF): no device memory";
  return nullptr;
}
}  // namespace fabricgate::bench
