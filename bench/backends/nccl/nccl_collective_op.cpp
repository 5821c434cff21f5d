// Timing follows nccl-tests so that figures compare: host barrier, start event on the stream, N
// operations back to back, stop event, wait. Data is staged through host memory once, outside the
// timed loop, for the pattern fill and the check.
#include "bench/backends/nccl/nccl_collective_op.hpp"

#include <memory>
#include <vector>

namespace fabricgate::bench {

namespace {

class NcclCollectiveOp final : public MeasuredOp {
 public:
  NcclCollectiveOp(Communicator& comm, ncclComm_t nccl, cudaStream_t stream, const CollectiveCall& call)
      : comm_(comm), nccl_(nccl), stream_(stream), call_(call), type_(*nccl_type(call.dtype)), elem_(size_of(call.dtype)) {}

  ~NcclCollectiveOp() override {
    if (start_) cudaEventDestroy(start_);
    if (stop_) cudaEventDestroy(stop_);
    if (send_) cudaFree(send_);
    if (recv_) cudaFree(recv_);
  }
  NcclCollectiveOp(const NcclCollectiveOp&) = delete;
  NcclCollectiveOp& operator=(const NcclCollectiveOp&) = delete;

  // Returns false with a reason when the buffers do not fit.
  bool allocate(std::string& reason) {
    const std::size_t send_bytes = call_.counts.send_count * elem_;
    const std::size_t recv_bytes = call_.counts.recv_count * elem_;
    cudaError_t rc = cudaMalloc(&recv_, recv_bytes);
    if (rc == cudaSuccess && !call_.in_place) rc = cudaMalloc(&send_, send_bytes);
    if (rc == cudaErrorMemoryAllocation) {
      cudaGetLastError();  // clear the sticky-free allocation error
      reason = "does not fit in GPU memory (" + std::to_string(send_bytes + recv_bytes) + " bytes)";
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
    // Uninitialised host staging (GiB-sized; zero-filling it first would double the cost).
    const std::size_t send_bytes = call_.counts.send_count * elem_;
    std::unique_ptr<char[]> host(new char[send_bytes]);
    fill_send_buffer(call_, comm_.rank(), comm_.size(), host.get());
    note(cudaMemset(recv_, 0, call_.counts.recv_count * elem_));  // 0 is never an expected value
    // Broadcast in place: only the root holds data; the others keep the poison so a broadcast that
    // did nothing is caught.
    const bool skip = call_.in_place && call_.def->kind == CollectiveKind::broadcast && comm_.rank() != call_.root;
    if (!skip) note(cudaMemcpy(send_pointer(), host.get(), send_bytes, cudaMemcpyHostToDevice));
    note(cudaDeviceSynchronize());
  }

  double run_batch(int count) override {
    comm_.barrier();
    note(cudaEventRecord(start_, stream_));
    for (int i = 0; i < count && error_.empty(); ++i) issue();
    note(cudaEventRecord(stop_, stream_));
    note(cudaEventSynchronize(stop_));
    float ms = 0;
    note(cudaEventElapsedTime(&ms, start_, stop_));
    return static_cast<double>(ms) / 1e3;
  }

  std::int64_t count_wrong() override {
    const std::size_t recv_bytes = call_.counts.recv_count * elem_;
    std::unique_ptr<char[]> host(new char[recv_bytes]);
    note(cudaStreamSynchronize(stream_));
    note(cudaMemcpy(host.get(), recv_, recv_bytes, cudaMemcpyDeviceToHost));
    if (!error_.empty()) return 0;
    return count_wrong_elements(call_, comm_.rank(), comm_.size(), host.get());
  }

  std::string failure() const override { return error_; }

 private:
  // In place, the send data lives inside the receive buffer where NCCL expects it.
  void* send_pointer() const {
    if (!call_.in_place) return send_;
    const auto rank = static_cast<std::size_t>(comm_.rank());
    switch (call_.def->kind) {
      case CollectiveKind::all_gather: return static_cast<char*>(recv_) + rank * call_.counts.send_count * elem_;
      default: return recv_;
    }
  }

  void note(cudaError_t rc) {
    if (rc != cudaSuccess && error_.empty()) error_ = cuda_error(rc);
  }
  void note(ncclResult_t rc) {
    if (rc != ncclSuccess && error_.empty()) error_ = nccl_error(rc);
  }

  void issue() {
    const std::size_t count = call_.counts.call_count;
    const void* in = send_pointer();
    switch (call_.def->kind) {
      case CollectiveKind::all_reduce: note(ncclAllReduce(in, recv_, count, type_, nccl_op(call_.redop), nccl_, stream_)); break;
      case CollectiveKind::all_gather: note(ncclAllGather(in, recv_, count, type_, nccl_, stream_)); break;
      case CollectiveKind::reduce_scatter:
        note(ncclReduceScatter(in, recv_, count, type_, nccl_op(call_.redop), nccl_, stream_));
        break;
      case CollectiveKind::broadcast: note(ncclBroadcast(in, recv_, count, type_, call_.root, nccl_, stream_)); break;
      case CollectiveKind::reduce: note(ncclReduce(in, recv_, count, type_, nccl_op(call_.redop), call_.root, nccl_, stream_)); break;
      case CollectiveKind::alltoall: {
        const int n = comm_.size();
        const std::size_t block = count * elem_;
        note(ncclGroupStart());
        for (int peer = 0; peer < n; ++peer) {
          note(ncclSend(static_cast<const char*>(in) + static_cast<std::size_t>(peer) * block, count, type_, peer, nccl_, stream_));
          note(ncclRecv(static_cast<char*>(recv_) + static_cast<std::size_t>(peer) * block, count, type_, peer, nccl_, stream_));
        }
        note(ncclGroupEnd());
        break;
      }
      case CollectiveKind::sendrecv: {
        const int n = comm_.size();
        note(ncclGroupStart());
        note(ncclSend(in, count, type_, (comm_.rank() + 1) % n, nccl_, stream_));
        note(ncclRecv(recv_, count, type_, (comm_.rank() + n - 1) % n, nccl_, stream_));
        note(ncclGroupEnd());
        break;
      }
    }
  }

  Communicator& comm_;
  ncclComm_t nccl_;
  cudaStream_t stream_;
  CollectiveCall call_;
  ncclDataType_t type_;
  std::size_t elem_;
  void* send_ = nullptr;
  void* recv_ = nullptr;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
  std::string error_;
};

}  // namespace

std::unique_ptr<MeasuredOp> make_nccl_collective_op(Communicator& comm, ncclComm_t nccl, cudaStream_t stream,
                                                    const CollectiveCall& call, std::string& skip_reason) {
  auto op = std::make_unique<NcclCollectiveOp>(comm, nccl, stream, call);
  if (!op->allocate(skip_reason)) return nullptr;
  return op;
}

}  // namespace fabricgate::bench
