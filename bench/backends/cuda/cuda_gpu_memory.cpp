#include <cuda.h>  // driver types only: the one driver call is looked up at run time (no libcuda link)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "bench/backends/cuda/gpu_memory.hpp"

namespace fabricgate::bench {

namespace {

void check(cudaError_t rc, const char* what) {
  if (rc != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(rc));
}

class CudaMemory final : public GpuMemory {
 public:
  CudaMemory(int device, void* data, std::size_t bytes)
      : device_(device), data_(data), size_(bytes) {}
  ~CudaMemory() override {
    if (cudaSetDevice(device_) == cudaSuccess) static_cast<void>(cudaFree(data_));
  }
  CudaMemory(const CudaMemory&) = delete;
  CudaMemory& operator=(const CudaMemory&) = delete;

  void* data() const override { return data_; }
  std::size_t size() const override { return size_; }
  int device() const override { return device_; }

  void upload(std::size_t offset, const void* host, std::size_t bytes) override {
    in_range(offset, bytes);
    check(cudaSetDevice(device_), "cudaSetDevice");
    check(cudaMemcpy(static_cast<char*>(data_) + offset, host, bytes, cudaMemcpyHostToDevice),
          "cudaMemcpy to GPU");
  }
  void download(std::size_t offset, void* host, std::size_t bytes) const override {
    in_range(offset, bytes);
    check(cudaSetDevice(device_), "cudaSetDevice");
    check(cudaMemcpy(host, static_cast<const char*>(data_) + offset, bytes, cudaMemcpyDeviceToHost),
          "cudaMemcpy from GPU");
  }

  // cuMemGetHandleForAddressRange wants a host-page-aligned range: export the pages that hold the
  // buffer (the allocation is rounded up to 2 MiB, so they lie inside it) and say where it starts.
  Dmabuf export_dmabuf(std::string& reason) const override {
    using GetHandle =
        CUresult (*)(void*, CUdeviceptr, size_t, CUmemRangeHandleType, unsigned long long);
    void* entry = nullptr;
    cudaDriverEntryPointQueryResult found{};
    const cudaError_t rc = cudaGetDriverEntryPointByVersion("cuMemGetHandleForAddressRange", &entry,
                                                            11070, cudaEnableDefault, &found);
    if (rc != cudaSuccess || found != cudaDriverEntryPointSuccess || entry == nullptr) {
      reason =
          "the CUDA driver offers no cuMemGetHandleForAddressRange (dmabuf export needs CUDA "
          "11.7+)";
      return {};
    }
    constexpr std::uintptr_t kPage = 4096;
    const auto start = reinterpret_cast<std::uintptr_t>(data_);
    const std::uintptr_t base = start & ~(kPage - 1);
    const std::size_t length = ((start + size_ - base) + kPage - 1) & ~(kPage - 1);
    int fd = -1;
    static_cast<void>(cudaSetDevice(device_));
    const CUresult got = reinterpret_cast<GetHandle>(entry)(
        &fd, static_cast<CUdeviceptr>(base), length, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0);
    if (got != CUDA_SUCCESS || fd < 0) {
      reason = "cuMemGetHandleForAddressRange(DMA_BUF_FD) failed with CUresult " +
               std::to_string(got) +
               " (dmabuf needs the open GPU kernel modules and a kernel with dmabuf support)";
      return {};
    }
    return {fd, start - base};
  }

 private:
  void in_range(std::size_t offset, std::size_t bytes) const {
    if (offset > size_ || bytes > size_ - offset)
      throw std::runtime_error("GPU buffer copy outside the buffer");
  }

  int device_;
  void* data_;
  std::size_t size_;
};

}  // namespace

std::unique_ptr<GpuMemory> allocate_gpu_memory(int device, std::size_t bytes, std::string& reason) {
  if (device < 0) {
    reason = "no GPU on this rank (device memory requested)";
    return nullptr;
  }
  cudaError_t rc = cudaSetDevice(device);
  void* data = nullptr;
  // Rounded up to 2 MiB (never zero: a null pointer would read as "no buffer"): the driver then
  // hands out whole, aligned pages, which the dmabuf export needs.
  constexpr std::size_t kGranule = std::size_t{2} << 20;
  const std::size_t reserved =
      (std::max<std::size_t>(bytes, 1) + kGranule - 1) / kGranule * kGranule;
  if (rc == cudaSuccess) rc = cudaMalloc(&data, reserved);
  if (rc == cudaErrorMemoryAllocation) {
    static_cast<void>(cudaGetLastError());  // not sticky: clear it so later calls do not see it
    reason = "does not fit in GPU memory (" + std::to_string(bytes) + " bytes on GPU " +
             std::to_string(device) + ")";
    return nullptr;
  }
  if (rc != cudaSuccess) {
    reason = std::string("cannot allocate GPU memory: ") + cudaGetErrorString(rc);
    return nullptr;
  }
  return std::make_unique<CudaMemory>(device, data, bytes);
}

}  // namespace fabricgate::bench
