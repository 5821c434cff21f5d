// What the copy families need to know about this process's GPUs: identity, compute capability
// (→ NVLink generation), peer access, and active NVLinks (NVML).
#include <cuda_runtime.h>

#include "bench/backends/cuda_copy/copy_backend.hpp"
#include "bench/backends/cuda_copy/nvml_links.hpp"

namespace fabricgate::bench {

CopyPlatform query_copy_platform() {
  CopyPlatform p;
  int count = 0;
  const cudaError_t rc = cudaGetDeviceCount(&count);
  if (rc != cudaSuccess || count == 0) {
    static_cast<void>(cudaGetLastError());
    p.why_no_gpu = rc != cudaSuccess ? std::string("no usable GPU: ") + cudaGetErrorString(rc)
                                     : "no GPU visible";
    return p;
  }
  std::vector<std::string> bus_ids;
  for (int d = 0; d < count; ++d) {
    CopyDeviceInfo info;
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, d) == cudaSuccess) {
      info.name = prop.name;
      info.cc_major = prop.major;
      info.cc_minor = prop.minor;
      info.sm_count = prop.multiProcessorCount;
    }
    char bus[32] = {0};
    if (cudaDeviceGetPCIBusId(bus, sizeof bus, d) == cudaSuccess)
      info.pci_bus_id = normalise_bus_id(bus);
    bus_ids.push_back(info.pci_bus_id);
    p.devices.push_back(std::move(info));
  }
  p.peer_access.assign(static_cast<std::size_t>(count),
                       std::vector<bool>(static_cast<std::size_t>(count), false));
  for (int a = 0; a < count; ++a) {
    for (int b = 0; b < count; ++b) {
      int can = 0;
      if (a != b && cudaDeviceCanAccessPeer(&can, a, b) == cudaSuccess)
        p.peer_access[a][b] = can != 0;
    }
  }
  auto remotes = query_nvlink_remotes(bus_ids, p.nvml_reason);
  for (std::size_t d = 0; d < remotes.size() && d < p.devices.size(); ++d)
    p.devices[d].nvlink_remotes = std::move(remotes[d]);
  static_cast<void>(cudaGetLastError());  // a failed property query must not poison later calls
  return p;
}

}  // namespace fabricgate::bench
