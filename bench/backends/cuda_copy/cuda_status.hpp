#pragma once
// Every CUDA call in this backend goes through CudaStatus::check, which keeps the first error (with
// the call that produced it) instead of throwing: timed loops must not throw (MeasuredOp contract),
// and the engine asks failure() after the batch.
#include <cuda_runtime.h>

#include <string>

namespace fabricgate::bench {

struct CudaStatus {
  std::string error;

  bool check(cudaError_t rc, const char* what) {
    if (rc == cudaSuccess) return true;
    if (error.empty())
      error = std::string(what) + ": " + cudaGetErrorName(rc) + " (" + cudaGetErrorString(rc) + ")";
    return false;
  }
  bool ok() const { return error.empty(); }
};

}  // namespace fabricgate::bench
