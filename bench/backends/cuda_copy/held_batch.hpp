#pragma once
// Runs one batch of work on several streams (possibly on several GPUs) so that it all starts
// together and is timed as one interval, the nvbandwidth way:
//   stream 0: hold kernel (spins on a host-mapped flag) → start event
//   stream i: waits for start → its work
//   stream 0: waits for every stream's end → stop event
//   host: queues everything, then releases the flag, then waits for stop.
// Both events live on stream 0's device, so cudaEventElapsedTime is legal and the interval covers
// every stream. Without the hold (pageable copies block the host, which would never release it)
// the streams still share the start event.
#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <vector>

#include "bench/backends/cuda_copy/cuda_status.hpp"

namespace fabricgate::bench {

class HeldBatch {
 public:
  // One stream per entry of `devices` (stream i on devices[i]). Errors go to `status`.
  HeldBatch(std::vector<int> devices, bool hold, CudaStatus& status);
  ~HeldBatch();
  HeldBatch(const HeldBatch&) = delete;
  HeldBatch& operator=(const HeldBatch&) = delete;

  int device(std::size_t i) const { return devices_[i]; }
  cudaStream_t stream(std::size_t i) const { return streams_[i]; }
  std::size_t size() const { return devices_.size(); }

  // Queues `count` × enqueue(i, stream_i) per stream (with stream i's device current), runs the
  // batch, and returns its seconds (0 after an error, recorded in the status).
  double run(int count, const std::function<void(std::size_t, cudaStream_t)>& enqueue,
             const std::function<void()>& while_busy);

 private:
  std::vector<int> devices_;
  bool hold_;
  CudaStatus& status_;
  std::vector<cudaStream_t> streams_;
  std::vector<cudaEvent_t> done_;  // per stream, on its device
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
  int* flags_ = nullptr;  // host-mapped: [0] release, [1] the hold timed out
};

}  // namespace fabricgate::bench
