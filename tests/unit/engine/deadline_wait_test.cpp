// The deadline poll loop behind NCCL's non-blocking waits, with a fake clock that only
// moves when the loop pauses and fake work that finishes, fails or never finishes.
#include <gtest/gtest.h>

#include "bench/engine/deadline_wait.hpp"

namespace fabricgate::bench {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using std::chrono::microseconds;
using std::chrono::milliseconds;

class FakeClock final : public WaitClock {
 public:
  SteadyTime now() override { return t_; }
  void pause(microseconds d) override {
    pauses.push_back(d);
    t_ += d;
  }
  SteadyTime start() const { return SteadyTime{}; }
  std::vector<microseconds> pauses;

 private:
  SteadyTime t_{};
};

// Pending for `pending_polls` polls, then `last`.
class ScriptedWork final : public PendingWork {
 public:
  ScriptedWork(int pending_polls, PollResult last)
      : pending_(pending_polls), last_(std::move(last)) {}
  PollResult poll() override { return polls_++ < pending_ ? PollResult::pending() : last_; }

 private:
  int pending_;
  PollResult last_;
  int polls_ = 0;
};

TEST(DeadlineWait, FinishedWorkIsDoneEvenPastTheDeadline) {
  FakeClock clock;
  ScriptedWork work(0, PollResult::done());
  const WaitResult r = wait_until(work, clock.start() - milliseconds(1), clock);
  EXPECT_EQ(r.outcome, WaitOutcome::done);
  EXPECT_EQ(r.polls, 1);
  EXPECT_TRUE(clock.pauses.empty());
}

TEST(DeadlineWait, WorkThatFinishesBeforeTheDeadlineIsDone) {
  FakeClock clock;
  ScriptedWork work(5, PollResult::done());
  const WaitResult r = wait_until(work, clock.start() + milliseconds(100), clock);
  EXPECT_EQ(r.outcome, WaitOutcome::done);
  EXPECT_EQ(r.polls, 6);
  // Back-off: 10, 20, 40, 80, 160 µs.
  ASSERT_EQ(clock.pauses.size(), 5u);
  EXPECT_EQ(clock.pauses.front(), microseconds(10));
  EXPECT_EQ(clock.pauses.back(), microseconds(160));
}

TEST(DeadlineWait, FailureIsReportedWithItsReason) {
  FakeClock clock;
  ScriptedWork work(3, PollResult::failed("NCCL error: remote process exited"));
  const WaitResult r = wait_until(work, clock.start() + milliseconds(100), clock);
  EXPECT_EQ(r.outcome, WaitOutcome::failed);
  EXPECT_EQ(r.error, "NCCL error: remote process exited");
}

TEST(DeadlineWait, WorkThatNeverFinishesTimesOutAtTheDeadline) {
  FakeClock clock;
  ScriptedWork work(1 << 30, PollResult::done());
  const SteadyTime deadline = clock.start() + milliseconds(50);
  const WaitResult r = wait_until(work, deadline, clock);
  EXPECT_EQ(r.outcome, WaitOutcome::timed_out);
  EXPECT_EQ(clock.now(), deadline);  // never sleeps past the deadline
  for (const auto p : clock.pauses) EXPECT_LE(p, microseconds(1000));  // pauses capped at 1 ms
  EXPECT_GT(r.polls, 50);  // about one poll per millisecond once backed off
  EXPECT_LT(r.polls, 70);
}

TEST(DeadlineWait, RealClockTimesOutPromptly) {
  ScriptedWork work(1 << 30, PollResult::done());
  const auto t0 = std::chrono::steady_clock::now();
  const WaitResult r = wait_until(work, t0 + milliseconds(20));
  const auto waited = std::chrono::steady_clock::now() - t0;
  EXPECT_EQ(r.outcome, WaitOutcome::timed_out);
  EXPECT_GE(waited, milliseconds(20));
  EXPECT_LT(waited, milliseconds(2000));  // bounded, not a performance figure
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::bench
