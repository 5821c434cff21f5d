#include "bench/backends/cuda_copy/held_batch.hpp"

#include <atomic>

#include "bench/backends/cuda_copy/copy_kernels.hpp"

namespace fabricgate::bench {

namespace {
// Long enough for any honest queueing, short enough that a stuck hold ends the benchmark quickly.
constexpr std::uint64_t kHoldTimeoutNs = 5'000'000'000ULL;

void store_flag(int* flag, int value) {
  std::atomic_ref<int>(*flag).store(value, std::memory_order_seq_cst);
}
int load_flag(int* flag) { return std::atomic_ref<int>(*flag).load(std::memory_order_seq_cst); }
}  // namespace

HeldBatch::HeldBatch(std::vector<int> devices, bool hold, CudaStatus& status)
    : devices_(std::move(devices)), hold_(hold), status_(status) {
  streams_.assign(devices_.size(), nullptr);
  done_.assign(devices_.size(), nullptr);
  for (std::size_t i = 0; i < devices_.size() && status_.ok(); ++i) {
    status_.check(cudaSetDevice(devices_[i]), "cudaSetDevice");
    status_.check(cudaStreamCreateWithFlags(&streams_[i], cudaStreamNonBlocking),
                  "cudaStreamCreateWithFlags");
    status_.check(cudaEventCreate(&done_[i]), "cudaEventCreate");
  }
  if (devices_.empty() || !status_.ok()) return;
  status_.check(cudaSetDevice(devices_[0]), "cudaSetDevice");
  status_.check(cudaEventCreate(&start_), "cudaEventCreate");
  status_.check(cudaEventCreate(&stop_), "cudaEventCreate");
  void* flags = nullptr;
  // Portable: the flag is read by a kernel on stream 0's device whichever device was current here.
  if (status_.check(
          cudaHostAlloc(&flags, 2 * sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable),
          "cudaHostAlloc(flag)")) {
    flags_ = static_cast<int*>(flags);
  }
}

HeldBatch::~HeldBatch() {
  // Teardown errors cannot be reported any more (the record is written); the calls are still made.
  for (std::size_t i = 0; i < devices_.size(); ++i) {
    if (cudaSetDevice(devices_[i]) != cudaSuccess) continue;
    if (streams_[i]) static_cast<void>(cudaStreamDestroy(streams_[i]));
    if (done_[i]) static_cast<void>(cudaEventDestroy(done_[i]));
  }
  if (start_) static_cast<void>(cudaEventDestroy(start_));
  if (stop_) static_cast<void>(cudaEventDestroy(stop_));
  if (flags_) static_cast<void>(cudaFreeHost(flags_));
}

double HeldBatch::run(int count, const std::function<void(std::size_t, cudaStream_t)>& enqueue,
                      const std::function<void()>& while_busy) {
  if (!status_.ok() || devices_.empty() || !flags_) return 0;
  store_flag(&flags_[0], 0);
  store_flag(&flags_[1], 0);
  status_.check(cudaSetDevice(devices_[0]), "cudaSetDevice");
  if (hold_) status_.check(launch_hold(streams_[0], flags_, kHoldTimeoutNs), "hold kernel launch");
  status_.check(cudaEventRecord(start_, streams_[0]), "cudaEventRecord(start)");
  for (std::size_t i = 0; i < devices_.size() && status_.ok(); ++i) {
    status_.check(cudaSetDevice(devices_[i]), "cudaSetDevice");
    if (i > 0)
      status_.check(cudaStreamWaitEvent(streams_[i], start_, 0), "cudaStreamWaitEvent(start)");
    for (int k = 0; k < count && status_.ok(); ++k) enqueue(i, streams_[i]);
    if (i > 0) status_.check(cudaEventRecord(done_[i], streams_[i]), "cudaEventRecord(done)");
  }
  status_.check(cudaSetDevice(devices_[0]), "cudaSetDevice");
  for (std::size_t i = 1; i < devices_.size(); ++i) {
    status_.check(cudaStreamWaitEvent(streams_[0], done_[i], 0), "cudaStreamWaitEvent(done)");
  }
  status_.check(cudaEventRecord(stop_, streams_[0]), "cudaEventRecord(stop)");
  store_flag(&flags_[0], 1);  // release: everything is queued
  if (while_busy) while_busy();
  // Wait even after an error above, so that nothing queued outlives the buffers it uses.
  for (std::size_t i = 0; i < devices_.size(); ++i) {
    status_.check(cudaStreamSynchronize(streams_[i]), "cudaStreamSynchronize");
  }
  if (load_flag(&flags_[1]) != 0 && status_.ok()) {
    status_.error =
        "the hold kernel timed out before the batch was released (host blocked while queueing)";
  }
  float ms = 0;
  status_.check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
  return status_.ok() ? static_cast<double>(ms) / 1e3 : 0.0;
}

}  // namespace fabricgate::bench
