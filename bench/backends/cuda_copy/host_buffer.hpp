#pragma once
// Host memory for host↔device copies, placed on the GPU's NUMA node without libnuma: a short-lived
// thread bound to that node's CPUs allocates the buffer and touches every page first, so the
// kernel's default (local) policy puts the pages on that node. Pinned memory is cudaHostAlloc'ed
// (portable + mapped); pageable memory is plain page-aligned memory.
#include <cstdint>
#include <vector>

#include "bench/backends/cuda_copy/copy_backend.hpp"
#include "bench/backends/cuda_copy/cuda_status.hpp"

namespace fabricgate::bench {

class HostBuffer {
 public:
  HostBuffer() = default;
  ~HostBuffer();
  HostBuffer(HostBuffer&& other) noexcept;
  HostBuffer& operator=(HostBuffer&& other) noexcept;
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;

  // Empty buffer and `status` set on failure; `out_of_memory` tells a skip from an error.
  static HostBuffer allocate(std::uint64_t bytes, HostMemory kind, const std::vector<int>& cpus,
                             CudaStatus& status, bool& out_of_memory);
  void* data() const { return data_; }
  std::uint64_t bytes() const { return bytes_; }

 private:
  void release();
  void* data_ = nullptr;
  std::uint64_t bytes_ = 0;
  HostMemory kind_ = HostMemory::pinned;
};

}  // namespace fabricgate::bench
