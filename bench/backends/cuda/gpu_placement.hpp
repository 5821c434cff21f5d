#pragma once
// Which GPU this rank drives, and its identity for the per-rank record (P01 evidence).
// Vendor-free interface: cuda_placement.cu implements it with the CUDA runtime; without CUDA,
// no_gpu_placement.cpp reports why there is no GPU.
#include <string>

namespace fabricgate::bench {

struct GpuPlacement {
  int visible = 0;   // GPUs this process can see
  int device = -1;   // chosen device (local rank modulo visible), -1 when none
  std::string uuid;  // "GPU-…"
  std::string pci_bus_id;
  std::string name;
  std::string reason;  // why there is no GPU (empty when device >= 0)
};

// Selects local_rank % visible and makes it current for this process.
GpuPlacement place_on_gpu(int local_rank);

}  // namespace fabricgate::bench
