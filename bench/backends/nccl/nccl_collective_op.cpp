// Timing follows nccl-tests so that figures compare: host barrier, start event on each stream, N
// operations back to back (or one launch of a CUDA graph holding them), stop event, wait; the time
// is the slowest GPU's. Data is staged through host memory once, outside the timed loop, for the
// pattern fill and the check. Waits never block: completion is polled against the benchmark's
// deadline, and a miss is reported as a hang.
#include "bench/backends/nccl/nccl_collective_op.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include "bench/backends/nccl/nccl_issue.hpp"
#include "bench/backends/nccl/nccl_op_status.hpp"

namespace fabricgate::bench {

namespace {

// One GPU's share of the benchmark.
struct DeviceSide {
  void* send = nullptr;
  void* recv = nullptr;
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
  cudaGraphExec_t graph = nullptr;   // CUDA-graph mode: the captured batch
  std::optional<PeerBlocks> blocks;  // personalised exchanges: this GPU's per-peer blocks
};

// Zeroes device memory with host-to-device copies, not cudaMemset. cudaMemset is a kernel, and on
// the H200 machines a process that has run any kernel other than NCCL's lands its all_gather /
// reduce_scatter at one of several per-process levels (283-306 GB/s at 4 GiB, up to 8 % apart
// between fresh processes; nccl-tests with its data check does the same), while processes that have
// run only NCCL kernels agree within about 2 % (results/h200-sxm-x2-nv18/README.md, "Session 4").
// The copy engine leaves no such trace. Why a kernel does is not known.
cudaError_t zero_by_copy(void* device, std::size_t bytes) {
  static const std::vector<char> zeros(std::size_t{64} << 20, 0);
  char* dst = static_cast<char*>(device);
  for (std::size_t done = 0; done < bytes; done += zeros.size()) {
    const cudaError_t rc = cudaMemcpy(dst + done, zeros.data(),
                                      std::min(zeros.size(), bytes - done), cudaMemcpyHostToDevice);
    if (rc != cudaSuccess) return rc;
  }
  return cudaSuccess;
}

std::string ranks_text(const NcclComms& comms) {
  std::string text;
  for (const auto& m : comms.members()) text += (text.empty() ? "" : ",") + std::to_string(m.rank);
  return text;
}

class NcclCollectiveOp final : public MeasuredOp {
 public:
  NcclCollectiveOp(Communicator& comm, NcclComms& comms, const CollectiveCall& call)
      : comm_(comm),
        comms_(comms),
        call_(call),
        elem_(size_of(call.dtype)),
        sides_(comms.members().size()),
        status_(comms, "on NCCL rank(s) " + ranks_text(comms)) {
    if (!call.def->peer_count) return;
    for (std::size_t i = 0; i < sides_.size(); ++i) {
      sides_[i].blocks =
          peer_blocks(*call.def, call.counts, comms.members()[i].rank, comms.nranks());
    }
  }

  ~NcclCollectiveOp() override {
    const auto& members = comms_.members();
    for (std::size_t i = 0; i < sides_.size(); ++i) {
      DeviceSide& d = sides_[i];
      cudaSetDevice(members[i].device);
      if (d.graph) cudaGraphExecDestroy(d.graph);
      if (d.start) cudaEventDestroy(d.start);
      if (d.stop) cudaEventDestroy(d.stop);
      if (d.send) cudaFree(d.send);
      if (d.recv) cudaFree(d.recv);
    }
  }
  NcclCollectiveOp(const NcclCollectiveOp&) = delete;
  NcclCollectiveOp& operator=(const NcclCollectiveOp&) = delete;

  // Returns false with a reason when the buffers do not fit.
  bool allocate(std::string& reason) {
    const std::size_t send_bytes = call_.counts.send_count * elem_;
    const std::size_t recv_bytes = call_.counts.recv_count * elem_;
    for (std::size_t i = 0; i < sides_.size(); ++i) {
      DeviceSide& d = sides_[i];
      cudaError_t rc = cudaSetDevice(comms_.members()[i].device);
      if (rc == cudaSuccess) rc = cudaMalloc(&d.recv, recv_bytes);
      if (rc == cudaSuccess && !call_.in_place) rc = cudaMalloc(&d.send, send_bytes);
      if (rc == cudaErrorMemoryAllocation) {
        cudaGetLastError();  // clear the sticky-free allocation error
        reason =
            "does not fit in GPU memory (" + std::to_string(send_bytes + recv_bytes) + " bytes)";
        return false;
      }
      if (rc == cudaSuccess) rc = cudaEventCreate(&d.start);
      if (rc == cudaSuccess) rc = cudaEventCreate(&d.stop);
      if (rc != cudaSuccess) {
        status_.fail(cuda_error(rc));
        reason = status_.error();
        return false;
      }
    }
    return true;
  }

  void prepare_data() override {
    if (call_.graph) connect();
    // Uninitialised host staging (GiB-sized; zero-filling it first would double the cost).
    const std::size_t send_bytes = call_.counts.send_count * elem_;
    std::unique_ptr<char[]> host(new char[send_bytes]);
    for (std::size_t i = 0; i < sides_.size(); ++i) {
      const NcclMember& m = comms_.members()[i];
      status_.note(cudaSetDevice(m.device));
      fill_send_buffer(call_, m.rank, comms_.nranks(), host.get());
      status_.note(zero_by_copy(sides_[i].recv,
                                call_.counts.recv_count * elem_));  // 0 is never an expected value
      // Broadcast in place: only the root holds data; the others keep the poison so a broadcast
      // that did nothing is caught.
      const bool skip = call_.in_place && call_.def->root_input_only && m.rank != call_.root;
      if (!skip)
        status_.note(cudaMemcpy(send_pointer(i), host.get(), send_bytes, cudaMemcpyHostToDevice));
      status_.note(cudaDeviceSynchronize());
    }
  }

  double run_batch(int count) override {
    if (!status_.ok() || comms_.aborted()) return 0;
    const auto& members = comms_.members();
    if (call_.graph && graph_ops_ != count) capture(count);
    comm_.barrier();
    for (std::size_t i = 0; i < sides_.size(); ++i) {
      status_.note(cudaSetDevice(members[i].device));
      status_.note(cudaEventRecord(sides_[i].start, members[i].stream));
    }
    if (call_.graph) {
      for (std::size_t i = 0; i < sides_.size() && status_.ok(); ++i) {
        status_.note(cudaSetDevice(members[i].device));
        status_.note(cudaGraphLaunch(sides_[i].graph, members[i].stream));
      }
    } else {
      for (int n = 0; n < count && status_.ok(); ++n) issue_all();
    }
    std::vector<cudaEvent_t> stops;
    for (std::size_t i = 0; i < sides_.size(); ++i) {
      status_.note(cudaSetDevice(members[i].device));
      status_.note(cudaEventRecord(sides_[i].stop, members[i].stream));
      stops.push_back(sides_[i].stop);
    }
    // Waited for even after an error: what was enqueued must finish (or be declared hung and
    // aborted) before its buffers may be freed, or cudaFree would block on it.
    status_.settle(comms_.wait_events(stops, status_.deadline()), "operations still running");
    if (!status_.ok()) return 0;
    float slowest_ms = 0;
    for (const DeviceSide& d : sides_) {
      float ms = 0;
      status_.note(cudaEventElapsedTime(&ms, d.start, d.stop));
      slowest_ms = std::max(slowest_ms, ms);
    }
    return static_cast<double>(slowest_ms) / 1e3;
  }

  std::int64_t count_wrong() override {
    // The last batch has completed (its stop events were waited for): no stream wait needed.
    const std::size_t recv_bytes = call_.counts.recv_count * elem_;
    std::unique_ptr<char[]> host(new char[recv_bytes]);
    std::int64_t wrong = 0;
    for (std::size_t i = 0; i < sides_.size() && status_.ok(); ++i) {
      const NcclMember& m = comms_.members()[i];
      status_.note(cudaSetDevice(m.device));
      status_.note(cudaMemcpy(host.get(), sides_[i].recv, recv_bytes, cudaMemcpyDeviceToHost));
      if (status_.ok()) wrong += count_wrong_elements(call_, m.rank, comms_.nranks(), host.get());
    }
    return wrong;
  }

  std::string failure() const override { return status_.error(); }
  void set_deadline(SteadyTime deadline) override { status_.set_deadline(deadline); }
  bool hung() const override { return status_.hung(); }
  void abort() override { comms_.abort(); }

 private:
  // In place, the send data lives inside the receive buffer where NCCL expects it.
  void* send_pointer(std::size_t side) const {
    const DeviceSide& d = sides_[side];
    if (!call_.in_place) return d.send;
    return static_cast<char*>(d.recv) +
           call_.def->in_place_offset(comms_.members()[side].rank, call_.counts) * elem_;
  }

  // One operation on every GPU of this process; a group when there are several (P02 mode).
  void issue_all() {
    const auto& members = comms_.members();
    const bool group = members.size() > 1;
    if (group) status_.note(ncclGroupStart(), "NCCL call still in progress");
    for (std::size_t i = 0; i < members.size(); ++i) {
      const NcclMember& m = members[i];
      const PeerBlocks* blocks = sides_[i].blocks ? &*sides_[i].blocks : nullptr;
      const IssueArgs args{call_,           m.comm,         m.stream, m.rank, comms_.nranks(),
                           send_pointer(i), sides_[i].recv, elem_,    blocks};
      status_.note(issue_collective(args), "NCCL call still in progress");
    }
    if (group) status_.note(ncclGroupEnd(), "NCCL call still in progress");
  }

  // CUDA-graph mode: one operation outside any capture first, so that NCCL sets up the connections
  // it makes lazily (allocations are not allowed while a stream is being captured). Before the
  // data is filled: its result is overwritten.
  void connect() {
    const auto& members = comms_.members();
    issue_all();
    std::vector<cudaEvent_t> stops;
    for (std::size_t i = 0; i < sides_.size(); ++i) {
      status_.note(cudaSetDevice(members[i].device));
      status_.note(cudaEventRecord(sides_[i].stop, members[i].stream));
      stops.push_back(sides_[i].stop);
    }
    status_.settle(comms_.wait_events(stops, status_.deadline()),
                   "connection set-up still running");
  }

  // CUDA-graph mode: capture `count` operations per GPU into one graph each, outside the timing.
  void capture(int count) {
    const auto& members = comms_.members();
    for (std::size_t i = 0; i < sides_.size(); ++i) {
      if (sides_[i].graph) cudaGraphExecDestroy(sides_[i].graph);
      sides_[i].graph = nullptr;
    }
    std::vector<bool> capturing(sides_.size(), false);
    for (std::size_t i = 0; i < sides_.size() && status_.ok(); ++i) {
      status_.note(cudaSetDevice(members[i].device));
      const cudaError_t rc =
          cudaStreamBeginCapture(members[i].stream, cudaStreamCaptureModeThreadLocal);
      status_.note(rc);
      capturing[i] = rc == cudaSuccess;
    }
    for (int n = 0; n < count && status_.ok(); ++n) issue_all();
    for (std::size_t i = 0; i < sides_.size(); ++i) {  // every begun capture is ended, error or not
      if (!capturing[i]) continue;
      cudaSetDevice(members[i].device);
      cudaGraph_t graph = nullptr;
      status_.note(cudaStreamEndCapture(members[i].stream, &graph));
      if (graph != nullptr) {
        if (status_.ok()) status_.note(cudaGraphInstantiate(&sides_[i].graph, graph, 0));
        cudaGraphDestroy(graph);
      }
    }
    graph_ops_ = status_.ok() ? count : 0;
  }

  Communicator& comm_;
  NcclComms& comms_;
  CollectiveCall call_;
  std::size_t elem_;
  std::vector<DeviceSide> sides_;
  int graph_ops_ = 0;  // operations in the instantiated graphs
  NcclOpStatus status_;
};

}  // namespace

std::unique_ptr<MeasuredOp> make_nccl_collective_op(Communicator& comm, NcclComms& comms,
                                                    const CollectiveCall& call,
                                                    std::string& skip_reason) {
  auto op = std::make_unique<NcclCollectiveOp>(comm, comms, call);
  if (!op->allocate(skip_reason)) return nullptr;
  return op;
}

}  // namespace fabricgate::bench
