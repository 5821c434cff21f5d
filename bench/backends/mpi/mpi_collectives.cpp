#include "bench/backends/mpi/mpi_collectives.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <new>
#include <vector>

#include "bench/backends/cuda/gpu_memory.hpp"
#include "bench/backends/mpi/mpi_cuda_awareness.hpp"

namespace fabricgate::bench {

namespace {

MPI_Datatype mpi_type(DataType t) {
  switch (t) {
    case DataType::int8: return MPI_INT8_T;
    case DataType::uint8: return MPI_UINT8_T;
    case DataType::int32: return MPI_INT32_T;
    case DataType::uint32: return MPI_UINT32_T;
    case DataType::int64: return MPI_INT64_T;
    case DataType::uint64: return MPI_UINT64_T;
    case DataType::float32: return MPI_FLOAT;
    case DataType::float64: return MPI_DOUBLE;
    default: return MPI_DATATYPE_NULL;  // no standard MPI type for half/bfloat16/fp8
  }
}

MPI_Op mpi_op(RedOp op) {
  switch (op) {
    case RedOp::sum: return MPI_SUM;
    case RedOp::prod: return MPI_PROD;
    case RedOp::min: return MPI_MIN;
    case RedOp::max: return MPI_MAX;
    case RedOp::avg: return MPI_OP_NULL;  // MPI has no average
  }
  return MPI_OP_NULL;
}

constexpr std::size_t kMaxMpiCount = static_cast<std::size_t>(std::numeric_limits<int>::max());

// PeerBlocks as the int arrays MPI_Alltoallv takes (unsupported_reason keeps totals within int).
struct IntBlocks {
  IntBlocks() = default;
  explicit IntBlocks(const PeerBlocks& b)
      : send_counts(ints(b.send_counts)),
        send_offsets(ints(b.send_offsets)),
        recv_counts(ints(b.recv_counts)),
        recv_offsets(ints(b.recv_offsets)) {}
  static std::vector<int> ints(const std::vector<std::size_t>& v) {
    std::vector<int> out;
    out.reserve(v.size());
    for (const std::size_t x : v) out.push_back(static_cast<int>(x));
    return out;
  }
  std::vector<int> send_counts, send_offsets, recv_counts, recv_offsets;
};

// Host memory: the buffers are send_/recv_ themselves. Device memory (CUDA-aware MPI): send_/recv_
// are the host staging copies, filled and checked there and copied to and from the GPU outside the
// timed loop; MPI gets the GPU pointers.
class MpiCollectiveOp final : public MeasuredOp {
 public:
  MpiCollectiveOp(MpiCommunicator& comm, const CollectiveCall& call)
      : comm_(comm),
        call_(call),
        type_(mpi_type(call.dtype)),
        op_(mpi_op(call.redop)),
        elem_(size_of(call.dtype)),
        send_(call.counts.send_count * elem_),
        recv_(call.counts.recv_count * elem_) {
    if (call.def->peer_count)
      blocks_ = IntBlocks(peer_blocks(*call.def, call.counts, comm.rank(), comm.size()));
  }

  // Device memory on `device`; false with `reason` when it cannot be had (a skip).
  bool place_on_gpu(int device, std::string& reason) {
    gpu_send_ = allocate_gpu_memory(device, send_.size(), reason);
    if (gpu_send_) gpu_recv_ = allocate_gpu_memory(device, recv_.size(), reason);
    return gpu_send_ && gpu_recv_;
  }

  void prepare_data() override {
    fill_send_buffer(call_, comm_.rank(), comm_.size(), send_.data());
    std::memset(recv_.data(), 0, recv_.size());  // 0 is never an expected value of the pattern
    // MPI_Bcast has one buffer. Out of place, the root broadcasts from its send buffer and its own
    // receive buffer gets the copy here, outside the timed loop.
    const bool bcast_root =
        call_.def->kind == CollectiveKind::broadcast && comm_.rank() == call_.root;
    if (!call_.in_place && bcast_root) std::memcpy(recv_.data(), send_.data(), send_.size());
    if (call_.in_place) {  // the send data goes where the collective's in-place form reads it
      const std::size_t offset = call_.def->in_place_offset(comm_.rank(), call_.counts) * elem_;
      const bool copy = !call_.def->root_input_only || comm_.rank() == call_.root;
      if (copy) std::memcpy(recv_.data() + offset, send_.data(), send_.size());
    }
    if (gpu_send_) {
      gpu_send_->upload(0, send_.data(), send_.size());
      gpu_recv_->upload(0, recv_.data(), recv_.size());
    }
  }

  double run_batch(int count) override {
    MPI_Barrier(comm_.world());  // start together: the slowest rank's clock then measures the op
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < count && error_.empty(); ++i) issue();
    const auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<double>(t1 - t0).count();
  }

  std::int64_t count_wrong() override {
    if (gpu_recv_) gpu_recv_->download(0, recv_.data(), recv_.size());
    return count_wrong_elements(call_, comm_.rank(), comm_.size(), recv_.data());
  }

  std::string failure() const override { return error_; }

 private:
  char* send_buffer() { return gpu_send_ ? static_cast<char*>(gpu_send_->data()) : send_.data(); }
  char* recv_buffer() { return gpu_recv_ ? static_cast<char*>(gpu_recv_->data()) : recv_.data(); }

  void check(int rc, const char* what) {
    if (rc == MPI_SUCCESS || !error_.empty()) return;
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, text, &len);
    error_ = std::string(what) + ": " + std::string(text, static_cast<std::size_t>(len));
  }

  void issue() {
    const auto count = static_cast<int>(call_.counts.call_count);
    const MPI_Comm w = comm_.world();
    char* send = send_buffer();
    char* recv = recv_buffer();
    void* in = call_.in_place ? MPI_IN_PLACE : send;
    switch (call_.def->kind) {
      case CollectiveKind::all_reduce:
        check(MPI_Allreduce(in, recv, count, type_, op_, w), "MPI_Allreduce");
        break;
      case CollectiveKind::all_gather:
        check(MPI_Allgather(in, count, type_, recv, count, type_, w), "MPI_Allgather");
        break;
      case CollectiveKind::reduce_scatter:
        check(MPI_Reduce_scatter_block(send, recv, count, type_, op_, w),
              "MPI_Reduce_scatter_block");
        break;
      case CollectiveKind::broadcast: {
        const bool from_send = !call_.in_place && comm_.rank() == call_.root;
        check(MPI_Bcast(from_send ? send : recv, count, type_, call_.root, w), "MPI_Bcast");
        break;
      }
      case CollectiveKind::reduce: {
        const bool root = comm_.rank() == call_.root;
        void* src = call_.in_place ? (root ? MPI_IN_PLACE : recv) : send;
        check(MPI_Reduce(src, recv, count, type_, op_, call_.root, w), "MPI_Reduce");
        break;
      }
      case CollectiveKind::gather:
        check(MPI_Gather(send, count, type_, recv, count, type_, call_.root, w), "MPI_Gather");
        break;
      case CollectiveKind::scatter:
        check(MPI_Scatter(send, count, type_, recv, count, type_, call_.root, w), "MPI_Scatter");
        break;
      case CollectiveKind::alltoall:
        check(MPI_Alltoall(send, count, type_, recv, count, type_, w), "MPI_Alltoall");
        break;
      case CollectiveKind::alltoallv:
        check(
            MPI_Alltoallv(send, blocks_.send_counts.data(), blocks_.send_offsets.data(), type_,
                          recv, blocks_.recv_counts.data(), blocks_.recv_offsets.data(), type_, w),
            "MPI_Alltoallv");
        break;
      case CollectiveKind::sendrecv: {
        const int n = comm_.size();
        const int to = (comm_.rank() + 1) % n;
        const int from = (comm_.rank() + n - 1) % n;
        check(MPI_Sendrecv(send, count, type_, to, 0, recv, count, type_, from, 0, w,
                           MPI_STATUS_IGNORE),
              "MPI_Sendrecv");
        break;
      }
    }
  }

  MpiCommunicator& comm_;
  CollectiveCall call_;
  MPI_Datatype type_;
  MPI_Op op_;
  std::size_t elem_;
  std::vector<char> send_;
  std::vector<char> recv_;
  IntBlocks blocks_;  // personalised exchanges: this rank's counts and displacements
  std::unique_ptr<GpuMemory> gpu_send_;
  std::unique_ptr<GpuMemory> gpu_recv_;
  std::string error_;
};

}  // namespace

std::string MpiCollectiveBackend::unsupported_reason(const CollectiveCall& call) const {
  if (mpi_type(call.dtype) == MPI_DATATYPE_NULL) {
    return "MPI has no standard type for " + std::string(to_string(call.dtype));
  }
  if (call.def->reduces && mpi_op(call.redop) == MPI_OP_NULL) {
    return "MPI has no " + std::string(to_string(call.redop)) + " reduction";
  }
  if (call.graph) return "CUDA-graph mode exists for the nccl backend only";
  if (call.device_memory) {
    // The library first: whether this MPI can take GPU buffers does not depend on the machine.
    if (std::string why = mpi_cuda_unaware_reason(); !why.empty()) return why;
    if (gpu_ < 0) return "no GPU on this rank (device memory requested): " + gpu_reason_;
  }
  // MPI counts (and MPI_Alltoallv's displacements, which reach the buffer totals) are ints.
  const bool displaced = static_cast<bool>(call.def->peer_count);
  const std::size_t largest =
      displaced ? std::max(call.counts.send_count, call.counts.recv_count) : call.counts.call_count;
  if (largest > kMaxMpiCount) {
    return "more elements than MPI's int counts can address (" + std::to_string(call.counts.bytes) +
           " bytes)";
  }
  return {};
}

std::unique_ptr<MeasuredOp> MpiCollectiveBackend::create(const CollectiveCall& call,
                                                         std::string& skip_reason) {
  try {
    auto op = std::make_unique<MpiCollectiveOp>(comm_, call);
    if (call.device_memory && !op->place_on_gpu(gpu_, skip_reason)) return nullptr;
    return op;
  } catch (const std::bad_alloc&) {
    skip_reason = "does not fit in host memory (" + std::to_string(call.counts.bytes) + " bytes)";
    return nullptr;
  }
}

}  // namespace fabricgate::bench
