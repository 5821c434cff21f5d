#include <cuda_runtime.h>

#include <fmt/format.h>

#include "bench/backends/cuda/gpu_placement.hpp"

namespace fabricgate::bench {

GpuPlacement place_on_gpu(int local_rank) {
  GpuPlacement p;
  int count = 0;
  const cudaError_t rc = cudaGetDeviceCount(&count);
  if (rc != cudaSuccess || count == 0) {
    p.reason = rc != cudaSuccess ? std::string("no usable GPU: ") + cudaGetErrorString(rc)
                                 : "no GPU visible";
    return p;
  }
  p.visible = count;
  p.device = local_rank % count;
  if (cudaSetDevice(p.device) != cudaSuccess) {
    p.reason = "cudaSetDevice failed";
    p.device = -1;
    return p;
  }
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, p.device) == cudaSuccess) {
    p.name = prop.name;
    const auto* b = reinterpret_cast<const unsigned char*>(prop.uuid.bytes);
    // The 16 bytes as nvidia-smi prints them: groups of 4, 2, 2, 2 and 6 bytes.
    p.uuid = fmt::format("GPU-{:02x}-{:02x}-{:02x}-{:02x}-{:02x}", fmt::join(b, b + 4, ""),
                         fmt::join(b + 4, b + 6, ""), fmt::join(b + 6, b + 8, ""),
                         fmt::join(b + 8, b + 10, ""), fmt::join(b + 10, b + 16, ""));
  }
  char bus[32] = {0};
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, p.device) == cudaSuccess) p.pci_bus_id = bus;
  return p;
}

}  // namespace fabricgate::bench
