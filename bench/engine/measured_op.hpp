#pragma once
// The seam between the engine's measurement loop and a backend: run a batch of operations and say
// how long it took on this rank; check the data once, outside any timed region.
#include <chrono>
#include <cstdint>
#include <string>

namespace fabricgate::bench {

class MeasuredOp {
 public:
  virtual ~MeasuredOp() = default;
  // Issues `count` operations back to back and returns this rank's elapsed seconds, measured the
  // backend's way (CUDA events on the stream, or the host's steady clock around a barrier-aligned
  // loop). Never throws inside the loop; errors are reported by `failure()` afterwards.
  virtual double run_batch(int count) = 0;
  // Fills the inputs with the data pattern (before the first operation).
  virtual void prepare_data() {}
  // Number of wrong elements on this rank after exactly one operation on freshly prepared data.
  virtual std::int64_t count_wrong() { return 0; }
  // Non-empty when the backend saw an error (device fault, library error) during run_batch.
  virtual std::string failure() const { return {}; }

  // Hang handling. The engine sets the time by which this benchmark must have finished,
  // before the first batch. A backend that can wait without blocking (NCCL: events and the
  // communicators' async errors polled) stops waiting then and reports hung(); backends that block
  // in their library (MPI) ignore it and rely on the harness's --timeout.
  virtual void set_deadline(std::chrono::steady_clock::time_point /*deadline*/) {}
  // True once a batch missed the deadline (failure() then says what was pending).
  virtual bool hung() const { return false; }
  // Called on every rank once any rank hung: give up outstanding work without waiting for it
  // (NCCL: ncclCommAbort). Nothing may be issued afterwards.
  virtual void abort() {}
};

}  // namespace fabricgate::bench
