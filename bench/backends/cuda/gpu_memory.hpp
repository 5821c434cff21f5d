#pragma once
// GPU memory for backends that carry no CUDA header (MPI on device memory, libfabric FI_HMEM,
// verbs): allocate on one device and stage data in and out for the pattern fill and the check,
// which stay outside the timed loops. cuda_gpu_memory.cpp implements it with the CUDA runtime;
// without CUDA, no_gpu_memory.cpp answers every request with the reason.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace fabricgate::bench {

class GpuMemory {
 public:
  virtual ~GpuMemory() = default;
  virtual void* data() const = 0;
  virtual std::size_t size() const = 0;
  virtual int device() const = 0;
  // Synchronous copies between host memory and [offset, offset + bytes) of this buffer; throw
  // std::runtime_error with the CUDA error (or when the range is outside the buffer).
  virtual void upload(std::size_t offset, const void* host, std::size_t bytes) = 0;
  virtual void download(std::size_t offset, void* host, std::size_t bytes) const = 0;

  // The buffer as a dmabuf (for ibv_reg_dmabuf_mr): bytes [offset, offset + size()) of `fd` are
  // the buffer. fd -1 with `reason` when the driver cannot export it. The caller closes fd.
  struct Dmabuf {
    int fd = -1;
    std::uint64_t offset = 0;
  };
  virtual Dmabuf export_dmabuf(std::string& reason) const = 0;
};

// `bytes` on `device` (never managed memory). nullptr with `reason` when it cannot be had: built
// without CUDA, no such device, or it does not fit ("does not fit in GPU memory …", a skip).
std::unique_ptr<GpuMemory> allocate_gpu_memory(int device, std::size_t bytes, std::string& reason);

}  // namespace fabricgate::bench
