// The copy measurement behind make_copy_op: a set of transfers, each on its own stream, started
// together behind one hold and timed as one interval (held_batch.hpp). Data is written with the
// pattern before the first copy and checked once after it, outside any timed batch.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "bench/backends/cuda_copy/copy_backend.hpp"
#include "bench/backends/cuda_copy/copy_kernels.hpp"
#include "bench/backends/cuda_copy/copy_pattern.hpp"
#include "bench/backends/cuda_copy/device_buffer.hpp"
#include "bench/backends/cuda_copy/held_batch.hpp"
#include "bench/backends/cuda_copy/peer_access.hpp"
#include "core/errors.hpp"

namespace fabricgate::bench {

namespace {

class CopyOp final : public MeasuredOp {
 public:
  explicit CopyOp(CopyRequest request) : req_(std::move(request)) {}

  // nullptr-worthy problems go to `skip`; device errors to status_ (the factory throws them).
  bool set_up(std::string& skip) {
    int count = 0;
    if (!status_.check(cudaGetDeviceCount(&count), "cudaGetDeviceCount")) return false;
    for (const Transfer& t : req_.transfers) {
      for (const int d : {t.src, t.dst, t.exec}) {
        if (d != kHostMemory && (d < 0 || d >= count)) {
          skip = "needs GPU " + std::to_string(d) + ", this process sees " + std::to_string(count);
          return false;
        }
      }
      const bool touches_host = t.src == kHostMemory || t.dst == kHostMemory;
      if (touches_host && req_.engine == CopyEngine::sm &&
          req_.host_memory == HostMemory::pageable) {
        skip = "SM copies need pinned (mapped) host memory";
        return false;
      }
      const int other = t.exec == t.src ? t.dst : t.src;
      if (other != kHostMemory && other != t.exec && !enable_peer(t.exec, other, status_)) {
        if (!status_.ok()) return false;
        if (req_.engine == CopyEngine::sm) {
          skip = gpu_name(t.exec) + " cannot map " + gpu_name(other) +
                 "'s memory (no peer access): SM copies need it";
          return false;
        }
        // CE copies without peer access still work (the driver stages them); the family notes it.
      }
    }
    for (std::size_t i = 0; i < req_.transfers.size(); ++i) {
      if (!allocate(req_.transfers[i].src, src_, skip) ||
          !allocate(req_.transfers[i].dst, dst_, skip))
        return false;
    }
    std::vector<int> exec;
    for (const Transfer& t : req_.transfers) {
      exec.push_back(t.exec);
      int sms = 0;
      int threads = 0;
      status_.check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, t.exec),
                    "cudaDeviceGetAttribute");
      status_.check(
          cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerMultiProcessor, t.exec),
          "cudaDeviceGetAttribute");
      blocks_.push_back(std::max(1, sms * std::max(1, threads / kCopyThreads)));  // fill every SM
    }
    const bool pageable_host = req_.host_memory == HostMemory::pageable;
    batch_ = std::make_unique<HeldBatch>(exec, !pageable_host, status_);
    return status_.ok();
  }

  void prepare_data() override {
    for (std::size_t i = 0; i < req_.transfers.size(); ++i) {
      fill(src_[i], seed(i));
      poison(dst_[i]);
    }
    synchronize_all();
  }

  double run_batch(int count) override {
    if (!status_.ok()) return 0;
    return batch_->run(
        count, [this](std::size_t i, cudaStream_t stream) { issue(i, stream); }, req_.while_busy);
  }

  std::int64_t count_wrong() override {
    std::int64_t wrong = 0;
    for (std::size_t i = 0; i < req_.transfers.size() && status_.ok(); ++i)
      wrong += count_wrong_in(dst_[i], seed(i));
    return wrong;
  }

  std::string failure() const override { return status_.error; }
  const std::string& error() const { return status_.error; }

 private:
  static std::uint32_t seed(std::size_t transfer) {
    return static_cast<std::uint32_t>(transfer + 1);
  }

  bool allocate(int device, std::vector<CopyBuffer>& into, std::string& skip) {
    CopyBuffer& b = into.emplace_back();
    bool oom = false;
    if (device == kHostMemory) {
      b.adopt_host(
          HostBuffer::allocate(req_.bytes, req_.host_memory, req_.host_cpus, status_, oom));
    } else {
      b.allocate_device(device, req_.bytes, status_, oom);
    }
    if (oom)
      skip = "does not fit in " + gpu_name(device) + " (" + std::to_string(req_.bytes) +
             " bytes per buffer)";
    return !oom && status_.ok();
  }

  void issue(std::size_t i, cudaStream_t stream) {
    void* dst = dst_[i].data();
    const void* src = src_[i].data();
    if (req_.engine == CopyEngine::ce) {
      status_.check(cudaMemcpyAsync(dst, src, req_.bytes, cudaMemcpyDefault, stream),
                    "cudaMemcpyAsync");
    } else {
      status_.check(launch_sm_copy(stream, dst, src, req_.bytes, blocks_[i]),
                    "SM copy kernel launch");
    }
  }

  void fill(const CopyBuffer& b, std::uint32_t s) {
    if (b.on_host()) {
      auto* p = static_cast<unsigned char*>(b.data());
      auto* words = static_cast<std::uint32_t*>(b.data());
      const std::uint64_t n = req_.bytes / 4;
      for (std::uint64_t w = 0; w < n; ++w) words[w] = copy_pattern_word(s, w);
      for (std::uint64_t x = n * 4; x < req_.bytes; ++x) p[x] = copy_pattern_byte(s, x);
      return;
    }
    status_.check(cudaSetDevice(b.device()), "cudaSetDevice");
    status_.check(launch_fill_pattern(nullptr, b.data(), req_.bytes, s, 1024),
                  "fill kernel launch");
  }

  void poison(const CopyBuffer& b) {
    if (b.on_host()) {
      std::memset(b.data(), 0, req_.bytes);
      return;
    }
    status_.check(cudaSetDevice(b.device()), "cudaSetDevice");
    status_.check(cudaMemset(b.data(), 0, req_.bytes), "cudaMemset");
  }

  std::int64_t count_wrong_in(const CopyBuffer& b, std::uint32_t s) {
    if (b.on_host()) {
      const auto* p = static_cast<const unsigned char*>(b.data());
      const auto* words = static_cast<const std::uint32_t*>(b.data());
      const std::uint64_t n = req_.bytes / 4;
      std::int64_t wrong = 0;
      for (std::uint64_t w = 0; w < n; ++w) wrong += words[w] != copy_pattern_word(s, w) ? 1 : 0;
      for (std::uint64_t x = n * 4; x < req_.bytes; ++x) {
        if (p[x] != copy_pattern_byte(s, x)) return wrong + 1;  // a short tail counts as one word
      }
      return wrong;
    }
    status_.check(cudaSetDevice(b.device()), "cudaSetDevice");
    unsigned long long* counter = nullptr;
    unsigned long long wrong = 0;
    if (!status_.check(cudaMalloc(&counter, sizeof wrong), "cudaMalloc(counter)")) return 0;
    status_.check(cudaMemset(counter, 0, sizeof wrong), "cudaMemset");
    status_.check(launch_count_wrong(nullptr, b.data(), req_.bytes, s, counter, 1024),
                  "check kernel launch");
    status_.check(cudaMemcpy(&wrong, counter, sizeof wrong, cudaMemcpyDeviceToHost),
                  "cudaMemcpy(counter)");
    status_.check(cudaFree(counter), "cudaFree(counter)");
    return static_cast<std::int64_t>(wrong);
  }

  void synchronize_all() {
    int count = 0;
    if (!status_.check(cudaGetDeviceCount(&count), "cudaGetDeviceCount")) return;
    for (int d = 0; d < count; ++d) {
      status_.check(cudaSetDevice(d), "cudaSetDevice");
      status_.check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    }
  }

  CopyRequest req_;
  CudaStatus status_;
  // Declared before batch_ so the streams are gone before the memory they used.
  std::vector<CopyBuffer> src_;
  std::vector<CopyBuffer> dst_;
  std::vector<int> blocks_;
  std::unique_ptr<HeldBatch> batch_;
};

}  // namespace

std::unique_ptr<MeasuredOp> make_copy_op(const CopyRequest& request, std::string& skip_reason) {
  if (request.transfers.empty() || request.bytes == 0) {
    skip_reason = "nothing to copy";
    return nullptr;
  }
  auto op = std::make_unique<CopyOp>(request);
  if (!op->set_up(skip_reason)) {
    if (!op->error().empty()) throw InfraError("copy set-up: " + op->error());
    return nullptr;
  }
  return op;
}

}  // namespace fabricgate::bench
