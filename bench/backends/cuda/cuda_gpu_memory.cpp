#include <cuda_runtime.h>

#include <stdexcept>

#include "bench/backends/cuda/gpu_memory.hpp"

namespace fabricgate::bench {

namespace {

void check(cudaError_t rc, const char* what) {
  if (rc != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(rc));
}

class CudaMemory final : public GpuMemory {
 public:
  CudaMemory(int device, void* data, std::size_t bytes) : device_(device), data_(data), size_(bytes) {}
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
    check(cudaMemcpy(static_cast<char*>(data_) + offset, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy to GPU");
  }
  void download(std::size_t offset, void* host, std::size_t bytes) const override {
    in_range(offset, bytes);
    check(cudaSetDevice(device_), "cudaSetDevice");
    check(cudaMemcpy(host, static_cast<const char*>(data_) + offset, bytes, cudaMemcpyDeviceToHost),
          "cudaMemcpy from GPU");
  }

 private:
  void in_range(std::size_t offset, std::size_t bytes) const {
    if (offset > size_ || bytes > size_ - offset) throw std::runtime_error("GPU buffer copy outside the buffer");
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
  // Never zero bytes: a null pointer would read as "no buffer" to the libraries it is passed to.
  if (rc == cudaSuccess) rc = cudaMalloc(&data, bytes == 0 ? 1 : bytes);
  if (rc == cudaErrorMemoryAllocation) {
    static_cast<void>(cudaGetLastError());  // not sticky: clear it so later calls do not see it
    reason = "does not fit in GPU memory (" + std::to_string(bytes) + " bytes on GPU " + std::to_string(device) + ")";
    return nullptr;
  }
  if (rc != cudaSuccess) {
    reason = std::string("cannot allocate GPU memory: ") + cudaGetErrorString(rc);
    return nullptr;
  }
  return std::make_unique<CudaMemory>(device, data, bytes);
}

}  // namespace fabricgate::bench
