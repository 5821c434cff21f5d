// Load latency from one GPU into another's memory (or its own): one thread follows a chain of
// dependent 8-byte loads, so each step costs one round trip. Slots are 512 B apart and visited in a
// scrambled order, so neither coalescing nor a prefetcher helps. One operation = one load.
#include <string>
#include <vector>

#include "bench/backends/cuda_copy/copy_backend.hpp"
#include "bench/backends/cuda_copy/copy_kernels.hpp"
#include "bench/backends/cuda_copy/device_buffer.hpp"
#include "bench/backends/cuda_copy/held_batch.hpp"
#include "bench/backends/cuda_copy/peer_access.hpp"
#include "core/errors.hpp"

namespace fabricgate::bench {

namespace {

constexpr std::uint64_t kSlots = 4096;      // visited in one cycle
constexpr std::uint64_t kSlotSpacing = 64;  // in 8-byte words: 512 B apart
constexpr std::uint64_t kScramble = 2047;   // odd, so k → k·2047 mod 4096 is a permutation

std::uint64_t slot_index(std::uint64_t k) {
  return (k % kSlots) * kScramble % kSlots * kSlotSpacing;
}

class PointerChaseOp final : public MeasuredOp {
 public:
  PointerChaseOp(int exec, int memory) : exec_(exec), memory_(memory) {}

  bool set_up(std::string& skip) {
    int count = 0;
    if (!status_.check(cudaGetDeviceCount(&count), "cudaGetDeviceCount")) return false;
    for (const int d : {exec_, memory_}) {
      if (d < 0 || d >= count) {
        skip = "needs GPU " + std::to_string(d) + ", this process sees " + std::to_string(count);
        return false;
      }
    }
    if (exec_ != memory_ && !enable_peer(exec_, memory_, status_)) {
      if (status_.ok())
        skip = gpu_name(exec_) + " cannot map " + gpu_name(memory_) + "'s memory (no peer access)";
      return false;
    }
    bool oom = false;
    if (!chain_.allocate_device(memory_, kSlots * kSlotSpacing * sizeof(std::uint64_t), status_,
                                oom) ||
        !last_.allocate_device(exec_, sizeof(std::uint64_t), status_, oom)) {
      if (oom) skip = "does not fit in GPU memory";
      return false;
    }
    batch_ = std::make_unique<HeldBatch>(std::vector<int>{exec_}, true, status_);
    return status_.ok();
  }

  void prepare_data() override {
    std::vector<std::uint64_t> host(kSlots * kSlotSpacing, 0);
    for (std::uint64_t k = 0; k < kSlots; ++k) host[slot_index(k)] = slot_index(k + 1);
    status_.check(cudaSetDevice(memory_), "cudaSetDevice");
    status_.check(cudaMemcpy(chain_.data(), host.data(), host.size() * sizeof(std::uint64_t),
                             cudaMemcpyHostToDevice),
                  "cudaMemcpy(chain)");
    status_.check(cudaSetDevice(exec_), "cudaSetDevice");
    status_.check(cudaMemset(last_.data(), 0xff, sizeof(std::uint64_t)), "cudaMemset");
    status_.check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  }

  // One kernel of `count` dependent loads (its launch is amortised over them).
  double run_batch(int count) override {
    if (!status_.ok()) return 0;
    const auto* chain = static_cast<const std::uint64_t*>(chain_.data());
    auto* last = static_cast<std::uint64_t*>(last_.data());
    return batch_->run(1,
                       [&](std::size_t, cudaStream_t s) {
                         status_.check(launch_pointer_chase(s, chain, count, last),
                                       "pointer chase launch");
                       },
                       {});
  }

  // After exactly one operation the chain must have led from slot 0 to slot 1.
  std::int64_t count_wrong() override {
    std::uint64_t last = 0;
    status_.check(cudaSetDevice(exec_), "cudaSetDevice");
    status_.check(cudaMemcpy(&last, last_.data(), sizeof last, cudaMemcpyDeviceToHost),
                  "cudaMemcpy(last)");
    return status_.ok() && last != slot_index(1) ? 1 : 0;
  }

  std::string failure() const override { return status_.error; }
  const std::string& error() const { return status_.error; }

 private:
  int exec_;
  int memory_;
  CudaStatus status_;
  CopyBuffer chain_;
  CopyBuffer last_;
  std::unique_ptr<HeldBatch> batch_;
};

}  // namespace

std::unique_ptr<MeasuredOp> make_pointer_chase_op(int exec_device, int memory_device,
                                                  std::string& skip_reason) {
  auto op = std::make_unique<PointerChaseOp>(exec_device, memory_device);
  if (!op->set_up(skip_reason)) {
    if (!op->error().empty()) throw InfraError("pointer chase set-up: " + op->error());
    return nullptr;
  }
  return op;
}

}  // namespace fabricgate::bench
