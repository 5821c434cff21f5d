#pragma once
// The NCCL communicators this process drives: one per GPU it owns (several only in the labelled
// in-process multi-GPU mode, P02). Completion of issued work is always polled against a deadline
// (cudaEventQuery + ncclCommGetAsyncError, never a blocking CUDA sync), and a communicator that
// misses it is aborted with ncclCommAbort.
//
// Blocking communicators by default: measured on 2x H200 with NCCL 2.28.3, non-blocking ones
// (ncclConfig_t.blocking = 0) made every operation return ncclInProgress and cost ~80 us per
// 8 B all_reduce instead of ~6.5 us — they measure NCCL's asynchronous launch path, not what
// training jobs (blocking by default) and nccl-tests see. The non-blocking mode stays available
// (--nccl-nonblocking, suite "nccl_nonblocking"; keys end in /nonblocking) for the case it exists
// for: an initialisation or call that can hang in the host is then abortable too.
#include <memory>
#include <string>
#include <vector>

#include "bench/backends/nccl/nccl_common.hpp"
#include "bench/engine/communicator.hpp"
#include "bench/engine/deadline_wait.hpp"

namespace fabricgate::bench {

struct NcclMember {
  int device = -1;
  int rank = 0;  // NCCL rank: process rank × GPUs per process + index
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;
};

struct NcclCommsResult;

class NcclComms {
 public:
  // Collective over `comm`: every process calls it with its own `devices` (all the same length).
  static NcclCommsResult create(Communicator& comm, const std::vector<int>& devices,
                                double timeout_seconds, bool nonblocking);
  ~NcclComms();
  NcclComms(const NcclComms&) = delete;
  NcclComms& operator=(const NcclComms&) = delete;

  const std::vector<NcclMember>& members() const { return members_; }
  int nranks() const { return nranks_; }
  int gpus_per_process() const { return static_cast<int>(members_.size()); }
  bool nonblocking() const { return nonblocking_; }

  // After a call that answered ncclInProgress: waits until every communicator is ready again.
  WaitResult wait_ready(SteadyTime deadline);
  // Waits until every event (one per member, recorded on its stream) has completed, watching the
  // communicators' asynchronous errors meanwhile (a peer's failure surfaces there).
  WaitResult wait_events(const std::vector<cudaEvent_t>& events, SteadyTime deadline);
  // ncclCommAbort on every communicator; later calls are refused. Idempotent.
  void abort();
  bool aborted() const { return aborted_; }

 private:
  NcclComms() = default;
  std::vector<NcclMember> members_;
  int nranks_ = 0;
  bool nonblocking_ = false;
  bool aborted_ = false;
};

struct NcclCommsResult {
  std::unique_ptr<NcclComms> comms;  // null on failure
  std::string why_not;
  bool hung = false;  // initialisation missed the deadline (and was aborted)
};

}  // namespace fabricgate::bench
