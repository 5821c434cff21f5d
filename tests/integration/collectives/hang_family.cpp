// Test-only fixture family "hang": benchmark "hang/ok" measures normally; in "hang/stuck" the last
// rank stops answering (sleeps, bounded at 10 minutes) while the others wait for it in a barrier,
// as a rank stuck in a collective would. The harness's --timeout must end the run and keep
// hang/ok's record.
#include <chrono>
#include <thread>

#include "bench/engine/family.hpp"

namespace fabricgate::bench {
namespace {

class BarrierOp final : public MeasuredOp {
 public:
  BarrierOp(Communicator& comm, bool stuck) : comm_(comm), stuck_(stuck) {}
  double run_batch(int count) override {
    const auto t0 = std::chrono::steady_clock::now();
    if (stuck_ && comm_.rank() == comm_.size() - 1)
      std::this_thread::sleep_for(std::chrono::minutes(10));
    for (int i = 0; i < count; ++i) comm_.barrier();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

 private:
  Communicator& comm_;
  bool stuck_;
};

void register_hang(const SuiteEntry& entry, BenchEnv& env) {
  for (const bool stuck : {false, true}) {
    RecordTemplate t;
    t.record.key = stuck ? "hang/stuck" : "hang/ok";
    t.record.family = "hang";
    t.record.backend = "test";
    t.record.op = "barrier";
    t.record.nranks = env.comm.size();
    Communicator& comm = env.comm;
    register_measurement(env, t, entry.plan, [&comm, stuck](std::string&) {
      return std::make_unique<BarrierOp>(comm, stuck);
    });
  }
}

const FamilyRegistration kHang{"hang", register_hang};

}  // namespace
}  // namespace fabricgate::bench
