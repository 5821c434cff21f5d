#pragma once
// The message-window engine shared by the RDMA backends (libfabric, verbs), written once against a
// small transport interface (UCX perf's idea: the engine knows nothing of the API underneath).
//
//   bandwidth: keep up to W operations in flight — post until W are outstanding, drain whatever
//              completed, repost — until N have completed (ib_write_bw / fi_rma_bw style).
//   ping-pong: the initiator sends and waits for the reply, the responder waits and replies;
//              one round trip per operation (latency = half of it).
//
// Every wait is bounded by a deadline: a transport that stops completing ends the run with an
// error ("no completion within 30 s"), never a hang. Nothing here throws; the timed loop runs it.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fabricgate::bench {

// The traffic an RDMA fixture measures (family "rdma"): one-sided write/read, two-sided send, and
// the ping-pong whose half round trip is the latency.
enum class TransferOp { write, read, send, pingpong };
std::optional<TransferOp> parse_transfer_op(std::string_view name);
const char* to_string(TransferOp op);

enum class PostStatus {
  posted,  // the operation is in flight
  busy,    // the transport cannot take more right now (queue full, EAGAIN): poll, then retry
  failed,  // error; error() says why
};

// One direction of traffic: sends, RMA writes or reads, or posted receives.
class WindowChannel {
 public:
  virtual ~WindowChannel() = default;
  // Posts one operation. `slot` in [0, window) says which in-flight position it fills (for
  // transports that keep per-slot buffers or contexts).
  virtual PostStatus post(int slot) = 0;
  // Reaps at most `max` completions of this channel without blocking: their count, or -1 on
  // error (error() says why). May drive the transport's progress engine.
  virtual int poll(int max) = 0;
  virtual std::string error() const = 0;
};

struct WindowPlan {
  std::int64_t operations = 1;  // N: completions to collect
  int window = 64;              // W: most operations in flight at once
  std::chrono::nanoseconds timeout = std::chrono::seconds(30);  // longest wait for one completion
};

struct WindowResult {
  std::int64_t posted = 0;
  std::int64_t completed = 0;
  std::string error;  // empty on success
  bool ok() const { return error.empty(); }
};

// Posts and drains until plan.operations have completed, at most plan.window in flight.
WindowResult run_window(WindowChannel& channel, const WindowPlan& plan);

// Waits until `count` completions of `channel` arrived (for example a closing "done" message).
WindowResult wait_completions(WindowChannel& channel, std::int64_t count,
                              std::chrono::nanoseconds timeout);

// Ping-pong over a send channel and a receive channel. The initiator starts each round trip; the
// responder echoes. Receives are posted before the matching send, so no message is unexpected.
// Returns completed round trips.
WindowResult run_ping_pong(WindowChannel& send, WindowChannel& recv, std::int64_t round_trips,
                           bool initiator, std::chrono::nanoseconds timeout);

// The channels one pair of ranks uses for one TransferOp. For write/read the initiator drives the
// data channel and then sends one "done" message that the passive side waits for. write and read
// have no receive channel: `recv` is a pointer (null there), never a reference bound to nothing.
struct TransferChannels {
  WindowChannel& data;
  WindowChannel* recv;  // send and pingpong only
  WindowChannel& fin_send;
  WindowChannel& fin_recv;
};

// `count` operations of `op` on this rank's side, shared by every RDMA backend.
WindowResult run_transfer(TransferOp op, bool initiator, const TransferChannels& channels,
                          std::int64_t count, int window, std::chrono::nanoseconds timeout);

// "no completion within 30 s" (the error text of a timeout).
std::string timeout_message(std::chrono::nanoseconds timeout);

// Payload pattern, checked once outside the timed loop: byte i of a message from `sender`.
// Destinations start as the bitwise complement of what they expect, so a transfer that moved
// nothing leaves every byte wrong (a zero-filled check buffer could match by accident).
void fill_payload(unsigned char* data, std::uint64_t bytes, int sender);
void fill_payload_complement(unsigned char* data, std::uint64_t bytes, int sender);
std::int64_t count_wrong_payload(const unsigned char* data, std::uint64_t bytes, int sender);

}  // namespace fabricgate::bench
