// Test-only fixture family "stall": an operation that never completes but is waited
// for against its deadline and can be aborted, as the NCCL backend does with a collective whose
// peer is gone. Benchmarks: stall/before (measures normally), stall/stuck, stall/after (must not
// run). The entry's "stuck" field says who stalls in stall/stuck:
//   "all"  — every rank (a collective hung on the wire): the ranks time out, agree, abort; the
//            bench names the benchmark and exits 3;
//   "host" — every rank but the last polls; the last sleeps in host code (bounded at 10 min) where
//            it cannot join the agreement: the bench's watchdog ends the job with MPI_Abort.
#include <chrono>
#include <thread>

#include "bench/engine/deadline_wait.hpp"
#include "bench/engine/family.hpp"

namespace fabricgate::bench {
namespace {

class NeverDone final : public PendingWork {
 public:
  PollResult poll() override { return PollResult::pending(); }
};

class StallOp final : public MeasuredOp {
 public:
  StallOp(Communicator& comm, bool stalls, bool host_stuck)
      : comm_(comm), stalls_(stalls), host_stuck_(host_stuck) {}
  double run_batch(int count) override {
    if (aborted_) {
      error_ = "operation issued after abort";
      return 0;
    }
    comm_.barrier();
    if (!stalls_) return 1e-6 * count;
    if (host_stuck_ && comm_.rank() == comm_.size() - 1)
      std::this_thread::sleep_for(std::chrono::minutes(10));
    NeverDone work;
    if (wait_until(work, deadline_).outcome == WaitOutcome::timed_out) {
      hung_ = true;
      error_ = "stall: still pending at the deadline on rank " + std::to_string(comm_.rank());
    }
    return 0;
  }
  std::string failure() const override { return error_; }
  void set_deadline(SteadyTime deadline) override { deadline_ = deadline; }
  bool hung() const override { return hung_; }
  void abort() override { aborted_ = true; }

 private:
  Communicator& comm_;
  bool stalls_;
  bool host_stuck_;
  SteadyTime deadline_ = SteadyTime::max();
  bool hung_ = false;
  bool aborted_ = false;
  std::string error_;
};

void register_stall(const SuiteEntry& entry, BenchEnv& env) {
  const std::string stuck = entry.string_or("stuck", "all");
  if (stuck != "all" && stuck != "host")
    entry.reader.fail(entry.field("stuck"), "\"all\" or \"host\"");
  for (const char* name : {"before", "stuck", "after"}) {
    RecordTemplate t;
    t.record.key = std::string("stall/") + name;
    t.record.family = "stall";
    t.record.backend = "test";
    t.record.op = "stall";
    t.record.nranks = env.comm.size();
    Communicator& comm = env.comm;
    const bool stalls = t.record.key == "stall/stuck";
    const bool host = stuck == "host";
    register_measurement(env, t, entry.plan, [&comm, stalls, host](std::string&) {
      return std::make_unique<StallOp>(comm, stalls, host);
    });
  }
}

const FamilyRegistration kStall{"stall", register_stall};

}  // namespace
}  // namespace fabricgate::bench
