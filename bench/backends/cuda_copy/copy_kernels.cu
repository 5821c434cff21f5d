#include <cstdint>

#include "bench/backends/cuda_copy/copy_kernels.hpp"
#include "bench/backends/cuda_copy/copy_pattern.hpp"

namespace fabricgate::bench {

namespace {

__device__ std::uint64_t global_timer_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void hold_kernel(volatile int* flags, std::uint64_t timeout_ns) {
  const std::uint64_t start = global_timer_ns();
  while (flags[0] == 0) {
    if (global_timer_ns() - start > timeout_ns) {
      flags[1] = 1;
      return;
    }
    __nanosleep(200);
  }
}

__global__ void sm_copy_kernel(uint4* __restrict__ dst, const uint4* __restrict__ src,
                               std::uint64_t vectors, unsigned char* __restrict__ dst_tail,
                               const unsigned char* __restrict__ src_tail, unsigned tail) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < vectors; i += stride) {
    dst[i] = src[i];
  }
  if (blockIdx.x == 0 && threadIdx.x < tail) dst_tail[threadIdx.x] = src_tail[threadIdx.x];
}

__global__ void fill_kernel(unsigned char* buffer, std::uint64_t bytes, std::uint32_t seed) {
  const std::uint64_t words = bytes / 4;
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  auto* w = reinterpret_cast<std::uint32_t*>(buffer);
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < words; i += stride) {
    w[i] = copy_pattern_word(seed, i);
  }
  if (blockIdx.x == 0 && threadIdx.x < bytes % 4) {
    const std::uint64_t b = words * 4 + threadIdx.x;
    buffer[b] = copy_pattern_byte(seed, b);
  }
}

__global__ void count_wrong_kernel(const unsigned char* buffer, std::uint64_t bytes,
                                   std::uint32_t seed, unsigned long long* wrong) {
  const std::uint64_t words = bytes / 4;
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  const auto* w = reinterpret_cast<const std::uint32_t*>(buffer);
  unsigned long long mine = 0;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < words; i += stride) {
    if (w[i] != copy_pattern_word(seed, i)) ++mine;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    for (std::uint64_t b = words * 4; b < bytes; ++b) {
      if (buffer[b] != copy_pattern_byte(seed, b)) {
        ++mine;
        break;
      }
    }
  }
  if (mine > 0) atomicAdd(wrong, mine);
}

__global__ void pointer_chase_kernel(const volatile std::uint64_t* chain, int steps,
                                     std::uint64_t* last) {
  std::uint64_t at = 0;
  for (int s = 0; s < steps; ++s) at = chain[at];
  *last = at;
}

}  // namespace

cudaError_t launch_hold(cudaStream_t stream, int* mapped_flags, std::uint64_t timeout_ns) {
  hold_kernel<<<1, 1, 0, stream>>>(mapped_flags, timeout_ns);
  return cudaGetLastError();
}

cudaError_t launch_sm_copy(cudaStream_t stream, void* dst, const void* src, std::uint64_t bytes,
                           int blocks) {
  const std::uint64_t vectors = bytes / sizeof(uint4);
  const std::uint64_t head = vectors * sizeof(uint4);
  sm_copy_kernel<<<blocks, kCopyThreads, 0, stream>>>(
      static_cast<uint4*>(dst), static_cast<const uint4*>(src), vectors,
      static_cast<unsigned char*>(dst) + head, static_cast<const unsigned char*>(src) + head,
      static_cast<unsigned>(bytes - head));
  return cudaGetLastError();
}

cudaError_t launch_fill_pattern(cudaStream_t stream, void* buffer, std::uint64_t bytes,
                                std::uint32_t seed, int blocks) {
  fill_kernel<<<blocks, 256, 0, stream>>>(static_cast<unsigned char*>(buffer), bytes, seed);
  return cudaGetLastError();
}

cudaError_t launch_count_wrong(cudaStream_t stream, const void* buffer, std::uint64_t bytes,
                               std::uint32_t seed, unsigned long long* wrong, int blocks) {
  count_wrong_kernel<<<blocks, 256, 0, stream>>>(static_cast<const unsigned char*>(buffer), bytes,
                                                 seed, wrong);
  return cudaGetLastError();
}

cudaError_t launch_pointer_chase(cudaStream_t stream, const std::uint64_t* chain, int steps,
                                 std::uint64_t* last) {
  pointer_chase_kernel<<<1, 1, 0, stream>>>(chain, steps, last);
  return cudaGetLastError();
}

}  // namespace fabricgate::bench
