// The shared message-window engine against fake transports: windows stay bounded, partial
// completions add up, stalls and errors end the run with a message instead of hanging.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <deque>

#include "bench/engine/message_window.hpp"

namespace fabricgate::bench {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using namespace std::chrono_literals;

// Completes at most `per_poll` operations per poll, after `delay_polls` empty polls; can refuse
// posts (busy) every other time, stop completing after `stall_after`, or fail a post / a poll.
class FakeChannel final : public WindowChannel {
 public:
  int per_poll = 1000;
  int busy_every = 0;         // every n-th post answers busy (0: never)
  long stall_after = -1;      // completions delivered before the transport goes silent
  long fail_post_at = -1;     // the post with this index fails
  long fail_poll_after = -1;  // poll fails once this many completions were delivered
  long posted = 0, completed = 0, max_in_flight = 0, posts_tried = 0;

  PostStatus post(int slot) override {
    ++posts_tried;
    slots.push_back(slot);
    if (posted == fail_post_at) {
      err = "fake post failure";
      return PostStatus::failed;
    }
    if (busy_every > 0 && posts_tried % busy_every == 0) return PostStatus::busy;
    ++posted;
    max_in_flight = std::max(max_in_flight, posted - completed);
    return PostStatus::posted;
  }
  int poll(int max) override {
    if (fail_poll_after >= 0 && completed >= fail_poll_after) {
      err = "fake completion error";
      return -1;
    }
    long n = std::min<long>({posted - completed, per_poll, max});
    if (stall_after >= 0) n = std::min(n, std::max(0L, stall_after - completed));
    completed += n;
    return static_cast<int>(n);
  }
  std::string error() const override { return err; }

  std::deque<int> slots;
  std::string err;
};

TEST(MessageWindow, CompletesExactlyNWithAtMostWInFlight) {
  FakeChannel ch;
  ch.per_poll = 3;  // partial completions: the engine must keep reposting
  const WindowResult r = run_window(ch, {1000, 16, 1s});
  EXPECT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.completed, 1000);
  EXPECT_EQ(r.posted, 1000);
  EXPECT_EQ(ch.posted, 1000);
  EXPECT_LE(ch.max_in_flight, 16);
  EXPECT_EQ(ch.max_in_flight, 16);
}

TEST(MessageWindow, SlotsStayInsideTheWindow) {
  FakeChannel ch;
  ASSERT_TRUE(run_window(ch, {100, 8, 1s}).ok());
  for (int s : ch.slots) {
    EXPECT_GE(s, 0);
    EXPECT_LT(s, 8);
  }
}

TEST(MessageWindow, BusyTransportIsRetriedNotFailed) {
  FakeChannel ch;
  ch.busy_every = 2;
  const WindowResult r = run_window(ch, {50, 4, 1s});
  EXPECT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.completed, 50);
}

TEST(MessageWindow, StalledTransportTimesOutWithMessage) {
  FakeChannel ch;
  ch.stall_after = 10;
  const auto t0 = std::chrono::steady_clock::now();
  const WindowResult r = run_window(ch, {100, 8, 50ms});
  const auto waited = std::chrono::steady_clock::now() - t0;
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.completed, 10);
  EXPECT_NE(r.error.find("no completion within 0.05 s"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("10 of 100 done"), std::string::npos) << r.error;
  EXPECT_GE(waited, 50ms);
  EXPECT_LT(waited, 5s);
}

TEST(MessageWindow, TimeoutMessageReadsInSeconds) {
  EXPECT_EQ(timeout_message(30s), "no completion within 30 s");
}

TEST(MessageWindow, PostAndCompletionErrorsEndTheRun) {
  FakeChannel post_fails;
  post_fails.fail_post_at = 5;
  WindowResult r = run_window(post_fails, {100, 8, 1s});
  EXPECT_EQ(r.error, "fake post failure");
  FakeChannel poll_fails;
  poll_fails.per_poll = 2;
  poll_fails.fail_poll_after = 6;
  r = run_window(poll_fails, {100, 8, 1s});
  EXPECT_EQ(r.error, "fake completion error");
  EXPECT_EQ(r.completed, 6);
}

TEST(MessageWindow, TransportReportingTooManyCompletionsIsAnError) {
  class Liar final : public WindowChannel {
   public:
    PostStatus post(int) override { return PostStatus::posted; }
    int poll(int max) override { return max + 5; }
    std::string error() const override { return {}; }
  } liar;
  const WindowResult r = run_window(liar, {10, 2, 1s});
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.error.find("more completions"), std::string::npos);
}

TEST(MessageWindow, WaitCompletionsCollectsPartialsAndTimesOut) {
  FakeChannel ch;
  ch.per_poll = 1;
  for (int i = 0; i < 3; ++i) ch.post(0);
  EXPECT_TRUE(wait_completions(ch, 3, 1s).ok());
  FakeChannel silent;
  silent.stall_after = 0;
  silent.post(0);
  EXPECT_FALSE(wait_completions(silent, 1, 20ms).ok());
}

TEST(MessageWindow, PingPongPostsReceiveBeforeSendAndCountsRoundTrips) {
  // Initiator: each round trip posts one receive and one send and waits for both.
  FakeChannel tx, rx;
  const WindowResult r = run_ping_pong(tx, rx, 25, true, 1s);
  EXPECT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.completed, 25);
  EXPECT_EQ(tx.posted, 25);
  EXPECT_EQ(rx.posted, 25);
  EXPECT_EQ(tx.max_in_flight, 1);
  // Responder: one receive posted ahead, so receives never fall behind the sends.
  FakeChannel tx2, rx2;
  EXPECT_TRUE(run_ping_pong(tx2, rx2, 25, false, 1s).ok());
  EXPECT_EQ(rx2.posted, 25);
  EXPECT_EQ(tx2.posted, 25);
}

TEST(MessageWindow, PingPongPeerThatNeverAnswersTimesOut) {
  FakeChannel tx, rx;
  rx.stall_after = 3;
  const WindowResult r = run_ping_pong(tx, rx, 10, true, 30ms);
  EXPECT_EQ(r.completed, 3);
  EXPECT_NE(r.error.find("no completion within"), std::string::npos);
}

TEST(Payload, ComplementedDestinationIsAllWrongUntilWritten) {
  std::vector<unsigned char> buf(4096);
  fill_payload_complement(buf.data(), buf.size(), 1);
  EXPECT_EQ(count_wrong_payload(buf.data(), buf.size(), 1), 4096);
  fill_payload(buf.data(), buf.size(), 1);
  EXPECT_EQ(count_wrong_payload(buf.data(), buf.size(), 1), 0);
  EXPECT_GT(count_wrong_payload(buf.data(), buf.size(), 0), 0);  // another sender's data differs
  buf[17] ^= 1;
  EXPECT_EQ(count_wrong_payload(buf.data(), buf.size(), 1), 1);
}

TEST(TransferOps, ParseAndPrintRoundTrip) {
  for (const char* name : {"write", "read", "send", "pingpong"}) {
    const auto op = parse_transfer_op(name);
    ASSERT_TRUE(op.has_value()) << name;
    EXPECT_STREQ(to_string(*op), name);
  }
  EXPECT_FALSE(parse_transfer_op("atomic").has_value());
  EXPECT_FALSE(parse_transfer_op("Write").has_value());
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::bench
