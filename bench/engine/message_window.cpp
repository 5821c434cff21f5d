#include "bench/engine/message_window.hpp"

#include <algorithm>
#include <thread>

#include <fmt/format.h>

namespace fabricgate::bench {

namespace {

using Clock = std::chrono::steady_clock;

// Deadline that moves forward whenever something completes: the timeout bounds the wait for one
// completion, not the whole run (a long run of healthy operations never times out).
// While idle it yields the CPU every kYieldEvery empty polls: on a dedicated core that costs
// nothing measurable (nobody else is runnable), on an oversubscribed CI host it lets the peer
// process run instead of both spinning through whole scheduler time slices (the idea of Open MPI's
// mpi_yield_when_idle). The clock is read only then, which keeps the empty-poll loop cheap.
class Watchdog {
 public:
  static constexpr std::uint64_t kYieldEvery =
      1024;  // ~50-100 us of empty polls: longer than a
             // loopback round trip, far shorter than a time slice
  explicit Watchdog(std::chrono::nanoseconds timeout) : timeout_(timeout) {}
  void progressed() { idle_polls_ = 0; }
  // One empty poll. True once no completion came for longer than the timeout.
  bool expired() {
    if (++idle_polls_ % kYieldEvery != 0) return false;
    if (idle_polls_ == kYieldEvery) since_ = Clock::now();  // this idle stretch began about now
    std::this_thread::yield();
    return Clock::now() - since_ > timeout_;
  }

 private:
  std::chrono::nanoseconds timeout_;
  Clock::time_point since_;
  std::uint64_t idle_polls_ = 0;
};

std::string channel_error(const WindowChannel& channel, const char* fallback) {
  std::string e = channel.error();
  return e.empty() ? fallback : e;
}

// One channel with its operations in flight, for the ping-pong's one-at-a-time steps.
struct Tracked {
  WindowChannel& channel;
  std::int64_t outstanding = 0;
};

// Posts one operation, polling (and counting what completes) while the transport is busy.
bool post_one(Tracked& t, Watchdog& dog, std::chrono::nanoseconds timeout, WindowResult& r) {
  for (;;) {
    const PostStatus s = t.channel.post(0);
    if (s == PostStatus::posted) {
      ++t.outstanding;
      ++r.posted;
      return true;
    }
    if (s == PostStatus::failed) {
      r.error = channel_error(t.channel, "post failed");
      return false;
    }
    const int n = t.channel.poll(static_cast<int>(std::max<std::int64_t>(t.outstanding, 1)));
    if (n < 0) {
      r.error = channel_error(t.channel, "completion error");
      return false;
    }
    if (n > 0) {
      t.outstanding -= n;
      dog.progressed();
    } else if (dog.expired()) {
      r.error = timeout_message(timeout) + " (transport stayed busy)";
      return false;
    }
  }
}

// Polls until at most `left` operations of `t` are outstanding.
bool drain_to(Tracked& t, std::int64_t left, Watchdog& dog, std::chrono::nanoseconds timeout,
              WindowResult& r) {
  while (t.outstanding > left) {
    const int n = t.channel.poll(static_cast<int>(t.outstanding - left));
    if (n < 0) {
      r.error = channel_error(t.channel, "completion error");
      return false;
    }
    if (n > t.outstanding) {
      r.error = "transport reported more completions than operations in flight";
      return false;
    }
    if (n > 0) {
      t.outstanding -= n;
      dog.progressed();
    } else if (dog.expired()) {
      r.error = timeout_message(timeout);
      return false;
    }
  }
  return true;
}

unsigned char payload_byte(std::uint64_t i, int sender) {
  return static_cast<unsigned char>((i * 131u + static_cast<std::uint64_t>(sender) * 29u + 7u) &
                                    0xffu);
}

}  // namespace

std::optional<TransferOp> parse_transfer_op(std::string_view name) {
  if (name == "write") return TransferOp::write;
  if (name == "read") return TransferOp::read;
  if (name == "send") return TransferOp::send;
  if (name == "pingpong") return TransferOp::pingpong;
  return std::nullopt;
}

const char* to_string(TransferOp op) {
  switch (op) {
    case TransferOp::write: return "write";
    case TransferOp::read: return "read";
    case TransferOp::send: return "send";
    case TransferOp::pingpong: return "pingpong";
  }
  return "?";
}

void fill_payload(unsigned char* data, std::uint64_t bytes, int sender) {
  for (std::uint64_t i = 0; i < bytes; ++i) data[i] = payload_byte(i, sender);
}

void fill_payload_complement(unsigned char* data, std::uint64_t bytes, int sender) {
  for (std::uint64_t i = 0; i < bytes; ++i)
    data[i] = static_cast<unsigned char>(~payload_byte(i, sender));
}

std::int64_t count_wrong_payload(const unsigned char* data, std::uint64_t bytes, int sender) {
  std::int64_t wrong = 0;
  for (std::uint64_t i = 0; i < bytes; ++i) wrong += data[i] != payload_byte(i, sender) ? 1 : 0;
  return wrong;
}

std::string timeout_message(std::chrono::nanoseconds timeout) {
  return fmt::format("no completion within {:g} s", std::chrono::duration<double>(timeout).count());
}

WindowResult run_window(WindowChannel& channel, const WindowPlan& plan) {
  WindowResult r;
  const int window = std::max(plan.window, 1);
  Watchdog dog(plan.timeout);
  std::int64_t in_flight = 0;
  while (r.completed < plan.operations) {
    // Fill the window ...
    while (in_flight < window && r.posted < plan.operations) {
      const PostStatus s = channel.post(static_cast<int>(r.posted % window));
      if (s == PostStatus::busy) break;
      if (s == PostStatus::failed) {
        r.error = channel_error(channel, "post failed");
        return r;
      }
      ++r.posted;
      ++in_flight;
    }
    // ... then take whatever has completed (partial completions are normal).
    const int n = channel.poll(static_cast<int>(std::max<std::int64_t>(in_flight, 1)));
    if (n < 0) {
      r.error = channel_error(channel, "completion error");
      return r;
    }
    if (n > in_flight) {
      r.error = "transport reported more completions than operations in flight";
      return r;
    }
    if (n > 0) {
      r.completed += n;
      in_flight -= n;
      dog.progressed();
    } else if (dog.expired()) {
      r.error = timeout_message(plan.timeout) + " (" + std::to_string(r.completed) + " of " +
                std::to_string(plan.operations) + " done, " + std::to_string(in_flight) +
                " in flight)";
      return r;
    }
  }
  return r;
}

WindowResult wait_completions(WindowChannel& channel, std::int64_t count,
                              std::chrono::nanoseconds timeout) {
  WindowResult r;
  Tracked t{channel, count};
  Watchdog dog(timeout);
  if (drain_to(t, 0, dog, timeout, r)) r.completed = count;
  return r;
}

WindowResult run_ping_pong(WindowChannel& send, WindowChannel& recv, std::int64_t round_trips,
                           bool initiator, std::chrono::nanoseconds timeout) {
  WindowResult r;
  Tracked tx{send};
  Tracked rx{recv};
  Watchdog dog(timeout);
  // The responder's first receive is posted up front; later ones before each reply goes out.
  if (!initiator && round_trips > 0 && !post_one(rx, dog, timeout, r)) return r;
  for (std::int64_t i = 0; i < round_trips; ++i) {
    if (initiator) {
      if (!post_one(rx, dog, timeout, r) || !post_one(tx, dog, timeout, r)) return r;
      if (!drain_to(rx, 0, dog, timeout, r) || !drain_to(tx, 0, dog, timeout, r)) return r;
    } else {
      if (!drain_to(rx, 0, dog, timeout, r)) return r;
      if (i + 1 < round_trips && !post_one(rx, dog, timeout, r)) return r;
      if (!post_one(tx, dog, timeout, r) || !drain_to(tx, 0, dog, timeout, r)) return r;
    }
    ++r.completed;
  }
  return r;
}

WindowResult run_transfer(TransferOp op, bool initiator, const TransferChannels& ch,
                          std::int64_t count, int window, std::chrono::nanoseconds timeout) {
  const WindowPlan plan{count, window, timeout};
  const WindowPlan one{1, 1, timeout};
  switch (op) {
    case TransferOp::write:
    case TransferOp::read: {
      if (!initiator) return run_window(ch.fin_recv, one);  // progress until the initiator is done
      WindowResult r = run_window(ch.data, plan);
      if (r.ok()) r.error = run_window(ch.fin_send, one).error;
      return r;
    }
    case TransferOp::send: return run_window(initiator ? ch.data : *ch.recv, plan);
    case TransferOp::pingpong: return run_ping_pong(ch.data, *ch.recv, count, initiator, timeout);
  }
  return {};
}

}  // namespace fabricgate::bench
