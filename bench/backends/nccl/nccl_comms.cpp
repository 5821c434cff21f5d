#include "bench/backends/nccl/nccl_comms.hpp"

#include <cstring>

#include <fmt/format.h>

namespace fabricgate::bench {

namespace {

SteadyTime after_seconds(double seconds) {
  return std::chrono::steady_clock::now() +
         std::chrono::duration_cast<std::chrono::steady_clock::duration>(
             std::chrono::duration<double>(seconds));
}

std::string nccl_failure(ncclComm_t comm, ncclResult_t rc) {
  std::string text = nccl_error(rc);
  const char* last = ncclGetLastError(comm);
  if (last != nullptr && *last != '\0') text += std::string(" (") + last + ")";
  return text;
}

// Every communicator's state: failed when any reports an error, pending while any is in progress.
PollResult poll_comms(const std::vector<NcclMember>& members) {
  bool pending = false;
  for (const auto& m : members) {
    if (m.comm == nullptr) continue;
    ncclResult_t state = ncclSuccess;
    if (const ncclResult_t rc = ncclCommGetAsyncError(m.comm, &state); rc != ncclSuccess) {
      return PollResult::failed(nccl_failure(m.comm, rc));
    }
    if (state == ncclInProgress) {
      pending = true;
    } else if (state != ncclSuccess) {
      return PollResult::failed("NCCL rank " + std::to_string(m.rank) + ": " +
                                nccl_failure(m.comm, state));
    }
  }
  return pending ? PollResult::pending() : PollResult::done();
}

class CommsReady final : public PendingWork {
 public:
  explicit CommsReady(const std::vector<NcclMember>& members) : members_(members) {}
  PollResult poll() override { return poll_comms(members_); }

 private:
  const std::vector<NcclMember>& members_;
};

class EventsDone final : public PendingWork {
 public:
  EventsDone(const std::vector<NcclMember>& members, const std::vector<cudaEvent_t>& events)
      : members_(members), events_(events) {}
  PollResult poll() override {
    PollResult comms = poll_comms(members_);
    if (comms.state == PollResult::State::failed) return comms;
    for (const cudaEvent_t e : events_) {
      const cudaError_t rc = cudaEventQuery(e);
      if (rc == cudaErrorNotReady) return PollResult::pending();
      if (rc != cudaSuccess) return PollResult::failed(cuda_error(rc));
    }
    return PollResult::done();
  }

 private:
  const std::vector<NcclMember>& members_;
  const std::vector<cudaEvent_t>& events_;
};

}  // namespace

NcclCommsResult NcclComms::create(Communicator& comm, const std::vector<int>& devices,
                                  double timeout_seconds, bool nonblocking) {
  NcclCommsResult out;
  const SteadyTime deadline = after_seconds(timeout_seconds);
  // Every rank takes part in every step, whatever happens, so that no rank waits for ever.
  ncclUniqueId id{};
  std::string error;
  if (comm.rank() == 0) {
    if (const ncclResult_t rc = ncclGetUniqueId(&id); rc != ncclSuccess) error = nccl_error(rc);
  }
  const std::string shared =
      comm.broadcast(std::string(reinterpret_cast<const char*>(&id), sizeof id), 0);
  std::memcpy(&id, shared.data(), sizeof id);
  if (!comm.all_agree(error.empty())) {
    out.why_not = "ncclGetUniqueId failed on rank 0";
    return out;
  }
  std::unique_ptr<NcclComms> self(new NcclComms());
  const int per_process = static_cast<int>(devices.size());
  self->nranks_ = comm.size() * per_process;
  self->nonblocking_ = nonblocking;
  for (int i = 0; i < per_process && error.empty(); ++i) {
    NcclMember m;
    m.device = devices[static_cast<std::size_t>(i)];
    m.rank = comm.rank() * per_process + i;
    cudaError_t rc = cudaSetDevice(m.device);
    if (rc == cudaSuccess) rc = cudaStreamCreateWithFlags(&m.stream, cudaStreamNonBlocking);
    if (rc != cudaSuccess) error = "GPU " + std::to_string(m.device) + ": " + cuda_error(rc);
    self->members_.push_back(m);
  }
  bool hung_here = false;
  if (error.empty()) {
    // One group so one thread can initialise several ranks (P02 mode). A blocking init cannot be
    // interrupted: a missing peer is then caught by `fabricgate run --timeout`.
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = nonblocking ? 0 : 1;
    ncclResult_t rc = ncclGroupStart();
    for (auto& m : self->members_) {
      if (rc != ncclSuccess && rc != ncclInProgress) break;
      if (const cudaError_t set = cudaSetDevice(m.device); set != cudaSuccess) {
        error = "GPU " + std::to_string(m.device) + ": " + cuda_error(set);
        break;
      }
      rc = ncclCommInitRankConfig(&m.comm, self->nranks_, id, m.rank, &config);
    }
    const ncclResult_t end = ncclGroupEnd();
    if (error.empty() && rc != ncclSuccess && rc != ncclInProgress) error = nccl_error(rc);
    if (error.empty() && end != ncclSuccess && end != ncclInProgress) error = nccl_error(end);
    if (error.empty()) {
      const WaitResult w = self->wait_ready(deadline);
      if (w.outcome == WaitOutcome::timed_out) {
        hung_here = true;
        error =
            fmt::format("NCCL initialisation did not complete within {:g} s (communicator aborted)",
                        timeout_seconds);
      } else if (w.outcome == WaitOutcome::failed) {
        error = w.error;
      }
    }
  }
  if (!comm.all_agree(error.empty())) {
    out.hung = !comm.all_agree(!hung_here);
    out.why_not = error.empty() ? "NCCL initialisation failed on another rank" : error;
    self->abort();
    return out;
  }
  out.comms = std::move(self);
  return out;
}

NcclComms::~NcclComms() {
  if (!aborted_) {
    // Finalise all together (so several ranks of one process do not wait for each
    // other), then destroy; a finalisation that does not settle is aborted instead.
    for (auto& m : members_) {
      if (m.comm == nullptr) continue;
      cudaSetDevice(m.device);
      ncclCommFinalize(m.comm);
    }
    if (wait_ready(after_seconds(30)).outcome != WaitOutcome::done) {
      abort();
    } else {
      for (auto& m : members_) {
        if (m.comm != nullptr) ncclCommDestroy(m.comm);
        m.comm = nullptr;
      }
    }
  }
  for (auto& m : members_) {
    if (m.stream == nullptr) continue;
    cudaSetDevice(m.device);
    cudaStreamDestroy(m.stream);
  }
}

WaitResult NcclComms::wait_ready(SteadyTime deadline) {
  CommsReady work(members_);
  return wait_until(work, deadline);
}

WaitResult NcclComms::wait_events(const std::vector<cudaEvent_t>& events, SteadyTime deadline) {
  EventsDone work(members_, events);
  return wait_until(work, deadline);
}

void NcclComms::abort() {
  aborted_ = true;
  for (auto& m : members_) {
    if (m.comm == nullptr) continue;
    cudaSetDevice(m.device);
    ncclCommAbort(m.comm);
    m.comm = nullptr;
  }
}

}  // namespace fabricgate::bench
