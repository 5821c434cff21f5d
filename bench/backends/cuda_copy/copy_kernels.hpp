#pragma once
// Host-callable launchers for the kernels in copy_kernels.cu (so the op classes are plain C++).
// Each launches on `stream`, whose device must be current, and returns the launch status.
#include <cuda_runtime.h>

#include <cstdint>

namespace fabricgate::bench {

// Spins one thread until host-mapped flag[0] becomes non-zero, so every copy of a batch can be
// queued behind it and start together. After `timeout_ns` it gives up and sets flag[1] = 1: a hold
// that never sees its release (the host blocked while queueing) then ends as an error, not a hang.
cudaError_t launch_hold(cudaStream_t stream, int* mapped_flags, std::uint64_t timeout_ns);

// SM copy: 16-byte vector loads/stores in a grid-stride loop (tail bytes one by one), `blocks`
// blocks of kCopyThreads threads. The running device's SMs do the work: for P2P write the source
// GPU stores into peer memory, for read the destination GPU loads from it.
constexpr int kCopyThreads = 512;
cudaError_t launch_sm_copy(cudaStream_t stream, void* dst, const void* src, std::uint64_t bytes,
                           int blocks);

// Writes copy_pattern_byte(seed, ·) over a device buffer.
cudaError_t launch_fill_pattern(cudaStream_t stream, void* buffer, std::uint64_t bytes,
                                std::uint32_t seed, int blocks);
// Adds the number of 4-byte words (a short tail counts as one) differing from the pattern to
// *wrong.
cudaError_t launch_count_wrong(cudaStream_t stream, const void* buffer, std::uint64_t bytes,
                               std::uint32_t seed, unsigned long long* wrong, int blocks);

// One thread follows `steps` dependent loads through `chain` (indices, volatile so no cache level
// of the running GPU hides the trip), starting at index 0, and stores the final index in *last.
cudaError_t launch_pointer_chase(cudaStream_t stream, const std::uint64_t* chain, int steps,
                                 std::uint64_t* last);

}  // namespace fabricgate::bench
