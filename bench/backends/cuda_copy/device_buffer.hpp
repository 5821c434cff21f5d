#pragma once
// One end of a copy: device memory on `device`, or host memory (device == kHostMemory). Owns it.
#include <cstdint>
#include <utility>

#include "bench/backends/cuda_copy/host_buffer.hpp"

namespace fabricgate::bench {

class CopyBuffer {
 public:
  CopyBuffer() = default;
  ~CopyBuffer() {
    if (device_memory_ && cudaSetDevice(device_) == cudaSuccess)
      static_cast<void>(cudaFree(device_memory_));
  }
  CopyBuffer(CopyBuffer&& o) noexcept
      : device_(o.device_),
        device_memory_(std::exchange(o.device_memory_, nullptr)),
        host_(std::move(o.host_)) {}
  CopyBuffer& operator=(CopyBuffer&&) = delete;
  CopyBuffer(const CopyBuffer&) = delete;
  CopyBuffer& operator=(const CopyBuffer&) = delete;

  // Device memory. Returns false with out_of_memory set when it does not fit.
  bool allocate_device(int device, std::uint64_t bytes, CudaStatus& status, bool& out_of_memory) {
    device_ = device;
    out_of_memory = false;
    if (!status.check(cudaSetDevice(device), "cudaSetDevice")) return false;
    const cudaError_t rc = cudaMalloc(&device_memory_, bytes);
    if (rc == cudaErrorMemoryAllocation) {
      static_cast<void>(cudaGetLastError());
      device_memory_ = nullptr;
      out_of_memory = true;
      return false;
    }
    return status.check(rc, "cudaMalloc");
  }
  void adopt_host(HostBuffer host) {
    device_ = kHostMemory;
    host_ = std::move(host);
  }

  int device() const { return device_; }
  bool on_host() const { return device_ == kHostMemory; }
  void* data() const { return on_host() ? host_.data() : device_memory_; }

 private:
  int device_ = kHostMemory;
  void* device_memory_ = nullptr;
  HostBuffer host_;
};

}  // namespace fabricgate::bench
