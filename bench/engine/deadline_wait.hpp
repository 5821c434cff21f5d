#pragma once
// Waiting for work that may never finish (a collective whose peer is gone) without blocking in a
// vendor call: poll a non-blocking "are you done?" query until it says done or failed, or until a
// deadline passes. Backends wrap their queries (cudaEventQuery, ncclCommGetAsyncError) in
// PendingWork; the loop itself is pure host logic, tested with a fake clock and fake work.
#include <chrono>
#include <string>

namespace fabricgate::bench {

using SteadyTime = std::chrono::steady_clock::time_point;

struct PollResult {
  enum class State { pending, done, failed };
  State state = State::pending;
  std::string error;  // why, when failed
  static PollResult pending() { return {}; }
  static PollResult done() { return {State::done, {}}; }
  static PollResult failed(std::string why) { return {State::failed, std::move(why)}; }
};

// One non-blocking look at the work's state.
class PendingWork {
 public:
  virtual ~PendingWork() = default;
  virtual PollResult poll() = 0;
};

// Time and sleeping, behind an interface so tests run the loop without waiting.
class WaitClock {
 public:
  virtual ~WaitClock() = default;
  virtual SteadyTime now() = 0;
  virtual void pause(std::chrono::microseconds how_long) = 0;
};

// The real clock: std::chrono::steady_clock and std::this_thread::sleep_for.
WaitClock& steady_wait_clock();

enum class WaitOutcome { done, failed, timed_out };

struct WaitResult {
  WaitOutcome outcome = WaitOutcome::done;
  std::string error;  // the work's error when failed
  int polls = 0;      // how often the work was asked (tests, diagnostics)
};

// Polls `work` until it is done or failed, or `deadline` has passed (the work is always polled at
// least once, so finished work is never reported as timed out). Between polls the clock pauses
// with a back-off from 10 µs to 1 ms: quick answers for short operations, little CPU for long ones
// (the timing itself comes from device events, not from this loop).
WaitResult wait_until(PendingWork& work, SteadyTime deadline,
                      WaitClock& clock = steady_wait_clock());

}  // namespace fabricgate::bench
