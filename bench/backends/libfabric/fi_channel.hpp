#pragma once
// libfabric behind the message-window interface: one channel per kind of operation (send, recv,
// RMA write, RMA read), all sharing the endpoint's single completion queue. The demultiplexer
// reads the queue and credits each completion to the channel whose context it carries.
#include <rdma/fabric.h>
#include <rdma/fi_eq.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bench/engine/message_window.hpp"

namespace fabricgate::bench::fi {

class Channel;

// Every operation carries one of these as its context (FI_CONTEXT2 mode: the provider may use the
// fi_context2 while the operation is in flight, so each in-flight operation owns one).
struct OpContext {
  fi_context2 provider_space;
  Channel* owner = nullptr;
};

class CompletionDemux {
 public:
  explicit CompletionDemux(fid_cq* cq) : cq_(cq) {}
  // Reads what the queue holds (also drives manual progress). False on a completion error.
  bool progress();
  const std::string& error() const { return error_; }

 private:
  fid_cq* cq_;
  std::string error_;
};

enum class ChannelKind { send, recv, write, read };

// Where the operations of a channel go.
struct ChannelTarget {
  void* local = nullptr;  // source (send, write) or destination (recv, read)
  std::size_t bytes = 0;
  void* descriptor = nullptr;  // fi_mr_desc of the local buffer
  fi_addr_t peer = FI_ADDR_UNSPEC;
  std::uint64_t remote_address = 0;  // RMA only
  std::uint64_t remote_key = 0;
};

class Channel final : public WindowChannel {
 public:
  Channel(fid_ep* ep, CompletionDemux& demux, ChannelKind kind, ChannelTarget target, int window);
  PostStatus post(int slot) override;
  int poll(int max) override;
  std::string error() const override;

  void completed(OpContext* ctx);  // called by the demultiplexer

 private:
  fid_ep* ep_;
  CompletionDemux& demux_;
  ChannelKind kind_;
  ChannelTarget target_;
  std::vector<OpContext> contexts_;
  std::vector<OpContext*> free_;  // contexts not in flight
  int ready_ = 0;                 // completions credited but not yet reported by poll()
  std::string error_;
};

}  // namespace fabricgate::bench::fi
