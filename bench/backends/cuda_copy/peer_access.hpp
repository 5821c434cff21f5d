#pragma once
// Peer access from the GPU that runs a copy (or kernel) to the GPU that holds the other buffer.
#include <string>

#include "bench/backends/cuda_copy/copy_backend.hpp"
#include "bench/backends/cuda_copy/cuda_status.hpp"

namespace fabricgate::bench {

inline std::string gpu_name(int d) {
  return d == kHostMemory ? std::string("host memory") : "GPU " + std::to_string(d);
}

// Lets `exec` map `other`'s memory. False when the pair has no P2P path (or on an error, in
// status). Access stays enabled for the life of the process: later benchmarks of the pair find it
// on.
inline bool enable_peer(int exec, int other, CudaStatus& status) {
  int can = 0;
  if (!status.check(cudaDeviceCanAccessPeer(&can, exec, other), "cudaDeviceCanAccessPeer") || !can)
    return false;
  if (!status.check(cudaSetDevice(exec), "cudaSetDevice")) return false;
  const cudaError_t rc = cudaDeviceEnablePeerAccess(other, 0);
  if (rc == cudaErrorPeerAccessAlreadyEnabled) {
    static_cast<void>(cudaGetLastError());  // enabled by an earlier benchmark: fine
    return true;
  }
  return status.check(rc, "cudaDeviceEnablePeerAccess");
}

}  // namespace fabricgate::bench
