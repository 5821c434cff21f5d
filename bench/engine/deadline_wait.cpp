#include "bench/engine/deadline_wait.hpp"

#include <algorithm>
#include <thread>

namespace fabricgate::bench {

namespace {

class SteadyWaitClock final : public WaitClock {
 public:
  SteadyTime now() override { return std::chrono::steady_clock::now(); }
  // Short pauses yield instead of sleeping: sleep_for(10 us) lasts ~60 us on Linux (timer slack),
  // which would dominate the wait for a small operation.
  void pause(std::chrono::microseconds how_long) override {
    if (how_long < std::chrono::microseconds(100)) {
      std::this_thread::yield();
    } else {
      std::this_thread::sleep_for(how_long);
    }
  }
};

constexpr std::chrono::microseconds kFirstPause{10};
constexpr std::chrono::microseconds kLongestPause{1000};

}  // namespace

WaitClock& steady_wait_clock() {
  static SteadyWaitClock clock;  // stateless
  return clock;
}

WaitResult wait_until(PendingWork& work, SteadyTime deadline, WaitClock& clock) {
  WaitResult result;
  std::chrono::microseconds pause = kFirstPause;
  for (;;) {
    const PollResult r = work.poll();
    ++result.polls;
    if (r.state == PollResult::State::done) return result;
    if (r.state == PollResult::State::failed) {
      result.outcome = WaitOutcome::failed;
      result.error = r.error;
      return result;
    }
    const SteadyTime now = clock.now();
    if (now >= deadline) {
      result.outcome = WaitOutcome::timed_out;
      return result;
    }
    const auto left = std::chrono::duration_cast<std::chrono::microseconds>(deadline - now);
    clock.pause(std::max(std::chrono::microseconds(1), std::min(pause, left)));
    pause = std::min(pause * 2, kLongestPause);
  }
}

}  // namespace fabricgate::bench
