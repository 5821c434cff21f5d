// Built when fabricgate is configured without CUDA: there is never a GPU to place on.
#include "bench/backends/cuda/gpu_placement.hpp"

namespace fabricgate::bench {
GpuPlacement place_on_gpu(int /*local_rank*/) {
  GpuPlacement p;
  p.reason = "fabricgate-bench was built without CUDA (FABRICGATE_WITH_CUDA=OFF)";
  return p;
}
}  // namespace fabricgate::bench
