#pragma once
// What one NCCL measurement has met so far, shared by the collective and the node-pair ops: the
// first error (later ones are consequences), whether it hung, and the deadline its waits are
// polled against. A missed deadline is always a hang: the communicators must then be aborted.
#include <string>
#include <utility>

#include "bench/backends/nccl/nccl_common.hpp"
#include "bench/backends/nccl/nccl_comms.hpp"

namespace fabricgate::bench {

class NcclOpStatus {
 public:
  // `where` ends a hang message: "on NCCL rank(s) 0,1", "(peer rank 3)".
  NcclOpStatus(NcclComms& comms, std::string where) : comms_(comms), where_(std::move(where)) {}

  void note(cudaError_t rc) {
    if (rc != cudaSuccess) fail(cuda_error(rc));
  }
  // A non-blocking communicator may answer ncclInProgress: wait (bounded) until it is ready.
  void note(ncclResult_t rc, const char* in_progress_what) {
    if (rc == ncclInProgress) {
      settle(comms_.wait_ready(deadline_), in_progress_what);
    } else if (rc != ncclSuccess) {
      fail(nccl_error(rc));
    }
  }
  void settle(const WaitResult& w, const char* what) {
    if (w.outcome == WaitOutcome::timed_out) {
      hung_ = true;
      fail(std::string(what) + " at the deadline " + where_);
    } else if (w.outcome == WaitOutcome::failed) {
      fail(w.error);
    }
  }
  void fail(std::string error) {
    if (error_.empty()) error_ = std::move(error);
  }

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  bool hung() const { return hung_; }
  SteadyTime deadline() const { return deadline_; }
  void set_deadline(SteadyTime deadline) { deadline_ = deadline; }

 private:
  NcclComms& comms_;
  std::string where_;
  std::string error_;
  SteadyTime deadline_ = SteadyTime::max();
  bool hung_ = false;
};

}  // namespace fabricgate::bench
