// Node-pair exchange over NCCL (family "nodepairs"): ncclSend + ncclRecv of `bytes` with one peer
// in one group, on the world communicator; timed like the collectives (host barrier, events on
// the stream). Ranks without a peer in this round only meet the others at the barrier. The
// communicator is non-blocking (nccl_comms.hpp): calls may answer ncclInProgress and completion is
// polled against the benchmark's deadline, so a pair that hangs is aborted, not waited on for ever.
#include "bench/backends/nccl/nccl_pair_op.hpp"

#include <memory>
#include <vector>

#include "bench/engine/message_window.hpp"

namespace fabricgate::bench {

namespace {

class NcclPairOp final : public MeasuredOp {
 public:
  NcclPairOp(Communicator& comm, NcclComms& comms, int peer, std::uint64_t bytes)
      : comm_(comm),
        comms_(comms),
        nccl_(comms.members().front().comm),
        stream_(comms.members().front().stream),
        peer_(peer),
        bytes_(bytes) {}
  ~NcclPairOp() override {
    if (start_) cudaEventDestroy(start_);
    if (stop_) cudaEventDestroy(stop_);
    if (send_) cudaFree(send_);
    if (recv_) cudaFree(recv_);
  }
  NcclPairOp(const NcclPairOp&) = delete;
  NcclPairOp& operator=(const NcclPairOp&) = delete;

  bool allocate(std::string& reason) {
    if (peer_ < 0) return true;
    cudaError_t rc = cudaMalloc(&send_, bytes_);
    if (rc == cudaSuccess) rc = cudaMalloc(&recv_, bytes_);
    if (rc == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      reason = "does not fit in GPU memory (2 x " + std::to_string(bytes_) + " bytes)";
      return false;
    }
    if (rc == cudaSuccess) rc = cudaEventCreate(&start_);
    if (rc == cudaSuccess) rc = cudaEventCreate(&stop_);
    if (rc != cudaSuccess) {
      error_ = cuda_error(rc);
      reason = error_;
      return false;
    }
    return true;
  }

  void prepare_data() override {
    if (peer_ < 0) return;
    std::vector<unsigned char> host(bytes_);
    fill_payload(host.data(), bytes_, comm_.rank());
    note(cudaMemcpy(send_, host.data(), bytes_, cudaMemcpyHostToDevice));
    fill_payload_complement(host.data(), bytes_, peer_);
    note(cudaMemcpy(recv_, host.data(), bytes_, cudaMemcpyHostToDevice));
    note(cudaDeviceSynchronize());
  }

  double run_batch(int count) override {
    comm_.barrier();
    if (peer_ < 0 || comms_.aborted()) return 0.0;
    note(cudaEventRecord(start_, stream_));
    for (int i = 0; i < count && error_.empty(); ++i) {
      note(ncclGroupStart());
      note(ncclSend(send_, bytes_, ncclUint8, peer_, nccl_, stream_));
      note(ncclRecv(recv_, bytes_, ncclUint8, peer_, nccl_, stream_));
      note(ncclGroupEnd());
    }
    note(cudaEventRecord(stop_, stream_));
    // Waited for even after an error: enqueued work must finish or be declared hung before the
    // buffers may be freed.
    settle(comms_.wait_events({stop_}, deadline_), "send/receive still running");
    if (!error_.empty()) return 0.0;
    float ms = 0;
    note(cudaEventElapsedTime(&ms, start_, stop_));
    return static_cast<double>(ms) / 1e3;
  }

  std::int64_t count_wrong() override {
    if (peer_ < 0) return 0;
    // The last batch's stop event was waited for: nothing is pending on the stream.
    std::vector<unsigned char> host(bytes_);
    note(cudaMemcpy(host.data(), recv_, bytes_, cudaMemcpyDeviceToHost));
    return error_.empty() ? count_wrong_payload(host.data(), bytes_, peer_) : 0;
  }

  std::string failure() const override { return error_; }
  void set_deadline(SteadyTime deadline) override { deadline_ = deadline; }
  bool hung() const override { return hung_; }
  void abort() override { comms_.abort(); }

 private:
  void note(cudaError_t rc) {
    if (rc != cudaSuccess && error_.empty()) error_ = cuda_error(rc);
  }
  void note(ncclResult_t rc) {
    if (rc == ncclInProgress) {
      settle(comms_.wait_ready(deadline_), "NCCL send/receive still in progress");
    } else if (rc != ncclSuccess && error_.empty()) {
      error_ = nccl_error(rc);
    }
  }
  void settle(const WaitResult& w, const char* what) {
    if (w.outcome == WaitOutcome::timed_out) {
      hung_ = true;
      if (error_.empty()) error_ = std::string(what) + " at the deadline (peer rank " + std::to_string(peer_) + ")";
    } else if (w.outcome == WaitOutcome::failed && error_.empty()) {
      error_ = w.error;
    }
  }

  Communicator& comm_;
  NcclComms& comms_;
  ncclComm_t nccl_;
  cudaStream_t stream_;
  int peer_;
  std::uint64_t bytes_;
  void* send_ = nullptr;
  void* recv_ = nullptr;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
  std::string error_;
  SteadyTime deadline_ = SteadyTime::max();
  bool hung_ = false;
};

}  // namespace

std::unique_ptr<MeasuredOp> make_nccl_pair_op(Communicator& comm, NcclComms& comms, int peer, std::uint64_t bytes,
                                              std::string& skip_reason) {
  auto op = std::make_unique<NcclPairOp>(comm, comms, peer, bytes);
  if (!op->allocate(skip_reason)) return nullptr;
  return op;
}

}  // namespace fabricgate::bench
