#include "bench/backends/cuda_copy/host_buffer.hpp"

#include <pthread.h>
#include <sched.h>

#include <cstdlib>
#include <cstring>
#include <thread>
#include <utility>

namespace fabricgate::bench {

namespace {

constexpr std::uint64_t kPage = 4096;

// Binds the calling thread to `cpus` (best effort: an empty or impossible set leaves it unbound,
// which only costs placement, never correctness).
void bind_to(const std::vector<int>& cpus) {
  if (cpus.empty()) return;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (const int c : cpus) {
    if (c >= 0 && c < CPU_SETSIZE) CPU_SET(static_cast<std::size_t>(c), &set);
  }
  static_cast<void>(pthread_setaffinity_np(pthread_self(), sizeof set, &set));
}

}  // namespace

HostBuffer HostBuffer::allocate(std::uint64_t bytes, HostMemory kind, const std::vector<int>& cpus,
                                CudaStatus& status, bool& out_of_memory) {
  HostBuffer b;
  b.kind_ = kind;
  out_of_memory = false;
  const std::uint64_t rounded = (bytes + kPage - 1) / kPage * kPage;
  cudaError_t rc = cudaSuccess;
  void* p = nullptr;
  std::thread allocator([&] {
    bind_to(cpus);
    if (kind == HostMemory::pinned) {
      rc = cudaHostAlloc(&p, rounded, cudaHostAllocPortable | cudaHostAllocMapped);
    } else {
      p = std::aligned_alloc(kPage, rounded);
    }
    if (p) std::memset(p, 0, rounded);  // first touch from the bound thread places the pages
  });
  allocator.join();
  if (kind == HostMemory::pinned && rc == cudaErrorMemoryAllocation) {
    static_cast<void>(cudaGetLastError());
    out_of_memory = true;
    return b;
  }
  if (!status.check(rc, "cudaHostAlloc")) return b;
  if (!p) {
    out_of_memory = true;
    return b;
  }
  b.data_ = p;
  b.bytes_ = bytes;
  return b;
}

HostBuffer::~HostBuffer() { release(); }

HostBuffer::HostBuffer(HostBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)),
      kind_(other.kind_) {}

HostBuffer& HostBuffer::operator=(HostBuffer&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
    kind_ = other.kind_;
  }
  return *this;
}

void HostBuffer::release() {
  if (!data_) return;
  if (kind_ == HostMemory::pinned) {
    static_cast<void>(cudaFreeHost(data_));  // nothing to report to after teardown
  } else {
    std::free(data_);
  }
  data_ = nullptr;
}

}  // namespace fabricgate::bench
