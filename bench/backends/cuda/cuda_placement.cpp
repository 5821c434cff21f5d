#include <cuda_runtime.h>

#include <cstdio>

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
    char uuid[64];
    const auto* b = reinterpret_cast<const unsigned char*>(prop.uuid.bytes);
    std::snprintf(uuid, sizeof uuid,
                  "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                  b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
                  b[14], b[15]);
    p.uuid = uuid;
  }
  char bus[32] = {0};
  if (cudaDeviceGetPCIBusId(bus, sizeof bus, p.device) == cudaSuccess) p.pci_bus_id = bus;
  return p;
}

}  // namespace fabricgate::bench
