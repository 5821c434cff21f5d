// Test-only fixture family "skew": each rank reports a different per-operation time (rank r's
// local time is (r+1)² × 20 µs) while the operations themselves meet in a barrier. If ranks did not
// agree on how many operations make a sample, the barrier counts would differ and the job would
// hang; the test runs it under a timeout.
#include <chrono>
#include <thread>

#include "bench/engine/family.hpp"

namespace fabricgate::bench {
namespace {

class SkewedBarrierOp final : public MeasuredOp {
 public:
  explicit SkewedBarrierOp(Communicator& comm) : comm_(comm) {}
  double run_batch(int count) override {
    const auto local = std::chrono::microseconds(20 * (comm_.rank() + 1) * (comm_.rank() + 1));
    double seconds = 0;
    for (int i = 0; i < count; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      std::this_thread::sleep_for(local);
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      comm_.barrier();  // the "collective": every rank must call it equally often
    }
    return seconds;
  }

 private:
  Communicator& comm_;
};

void register_skew(const SuiteEntry& entry, BenchEnv& env) {
  RecordTemplate t;
  t.record.key = "skew/barrier/ranks:" + std::to_string(env.comm.size());
  t.record.family = "skew";
  t.record.backend = "test";
  t.record.op = "barrier";
  t.record.nranks = env.comm.size();
  Communicator& comm = env.comm;
  register_measurement(env, t, entry.plan,
                       [&comm](std::string&) { return std::make_unique<SkewedBarrierOp>(comm); });
}

const FamilyRegistration kSkew{"skew", register_skew};

}  // namespace
}  // namespace fabricgate::bench
