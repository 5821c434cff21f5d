// Node-pair exchange over NCCL (family "nodepairs"): ncclSend + ncclRecv of `bytes` with one peer
// in one group, on the world communicator; timed like the collectives (host barrier, events on
// the stream). Ranks without a peer in this round only meet the others at the barrier. Completion
// is polled against the benchmark's deadline (and a non-blocking communicator's ncclInProgress
// waited out), so a pair that hangs is aborted, not waited on for ever.
#include "bench/backends/nccl/nccl_pair_op.hpp"

#include <memory>
#include <vector>

#include "bench/backends/nccl/nccl_op_status.hpp"
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
        bytes_(bytes),
        status_(comms, "(peer rank " + std::to_string(peer) + ")") {}
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
      status_.fail(cuda_error(rc));
      reason = status_.error();
      return false;
    }
    return true;
  }

  void prepare_data() override {
    if (peer_ < 0) return;
    std::vector<unsigned char> host(bytes_);
    fill_payload(host.data(), bytes_, comm_.rank());
    status_.note(cudaMemcpy(send_, host.data(), bytes_, cudaMemcpyHostToDevice));
    fill_payload_complement(host.data(), bytes_, peer_);
    status_.note(cudaMemcpy(recv_, host.data(), bytes_, cudaMemcpyHostToDevice));
    status_.note(cudaDeviceSynchronize());
  }

  double run_batch(int count) override {
    comm_.barrier();
    if (peer_ < 0 || comms_.aborted()) return 0.0;
    status_.note(cudaEventRecord(start_, stream_));
    for (int i = 0; i < count && status_.ok(); ++i) {
      status_.note(ncclGroupStart(), "NCCL send/receive still in progress");
      status_.note(ncclSend(send_, bytes_, ncclUint8, peer_, nccl_, stream_),
                   "NCCL send/receive still in progress");
      status_.note(ncclRecv(recv_, bytes_, ncclUint8, peer_, nccl_, stream_),
                   "NCCL send/receive still in progress");
      status_.note(ncclGroupEnd(), "NCCL send/receive still in progress");
    }
    status_.note(cudaEventRecord(stop_, stream_));
    // Waited for even after an error: enqueued work must finish or be declared hung before the
    // buffers may be freed.
    status_.settle(comms_.wait_events({stop_}, status_.deadline()), "send/receive still running");
    if (!status_.ok()) return 0.0;
    float ms = 0;
    status_.note(cudaEventElapsedTime(&ms, start_, stop_));
    return static_cast<double>(ms) / 1e3;
  }

  std::int64_t count_wrong() override {
    if (peer_ < 0) return 0;
    // The last batch's stop event was waited for: nothing is pending on the stream.
    std::vector<unsigned char> host(bytes_);
    status_.note(cudaMemcpy(host.data(), recv_, bytes_, cudaMemcpyDeviceToHost));
    return status_.ok() ? count_wrong_payload(host.data(), bytes_, peer_) : 0;
  }

  std::string failure() const override { return status_.error(); }
  void set_deadline(SteadyTime deadline) override { status_.set_deadline(deadline); }
  bool hung() const override { return status_.hung(); }
  void abort() override { comms_.abort(); }

 private:
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
  NcclOpStatus status_;
};

}  // namespace

std::unique_ptr<MeasuredOp> make_nccl_pair_op(Communicator& comm, NcclComms& comms, int peer,
                                              std::uint64_t bytes, std::string& skip_reason) {
  auto op = std::make_unique<NcclPairOp>(comm, comms, peer, bytes);
  if (!op->allocate(skip_reason)) return nullptr;
  return op;
}

}  // namespace fabricgate::bench
