#include "bench/backends/libfabric/fi_channel.hpp"

#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_rma.h>

#include <algorithm>

#include "bench/backends/libfabric/fi_endpoint.hpp"

namespace fabricgate::bench::fi {

bool CompletionDemux::progress() {
  fi_cq_entry entries[32];
  const ssize_t n = fi_cq_read(cq_, entries, 32);
  if (n > 0) {
    for (ssize_t i = 0; i < n; ++i) {
      auto* ctx = static_cast<OpContext*>(entries[i].op_context);
      if (ctx && ctx->owner) ctx->owner->completed(ctx);
    }
    return true;
  }
  if (n == -FI_EAGAIN) return true;
  if (n == -FI_EAVAIL) {
    fi_cq_err_entry err{};
    if (fi_cq_readerr(cq_, &err, 0) > 0) {
      char detail[256] = {0};
      const char* text = fi_cq_strerror(cq_, err.prov_errno, err.err_data, detail, sizeof detail);
      error_ = std::string("completion error: ") + fi_strerror(err.err) + " (" +
               (text ? text : "") + ")";
    } else {
      error_ = "completion error (fi_cq_readerr returned nothing)";
    }
    return false;
  }
  error_ = fi_error("fi_cq_read", static_cast<long>(n));
  return false;
}

Channel::Channel(fid_ep* ep, CompletionDemux& demux, ChannelKind kind, ChannelTarget target,
                 int window)
    : ep_(ep),
      demux_(demux),
      kind_(kind),
      target_(target),
      contexts_(static_cast<std::size_t>(std::max(window, 1))) {
  for (auto& c : contexts_) {
    c.owner = this;
    free_.push_back(&c);
  }
}

PostStatus Channel::post(int /*slot*/) {
  if (free_.empty()) return PostStatus::busy;
  OpContext* ctx = free_.back();
  const ChannelTarget& t = target_;
  ssize_t rc = 0;
  switch (kind_) {
    case ChannelKind::send: rc = fi_send(ep_, t.local, t.bytes, t.descriptor, t.peer, ctx); break;
    case ChannelKind::recv: rc = fi_recv(ep_, t.local, t.bytes, t.descriptor, t.peer, ctx); break;
    case ChannelKind::write:
      rc = fi_write(ep_, t.local, t.bytes, t.descriptor, t.peer, t.remote_address, t.remote_key,
                    ctx);
      break;
    case ChannelKind::read:
      rc =
          fi_read(ep_, t.local, t.bytes, t.descriptor, t.peer, t.remote_address, t.remote_key, ctx);
      break;
  }
  if (rc == 0) {
    free_.pop_back();
    return PostStatus::posted;
  }
  if (rc == -FI_EAGAIN) {
    // Queue full: the provider needs its completion queue read to make room (manual progress).
    if (!demux_.progress()) {
      error_ = demux_.error();
      return PostStatus::failed;
    }
    return PostStatus::busy;
  }
  error_ = fi_error(kind_ == ChannelKind::send    ? "fi_send"
                    : kind_ == ChannelKind::recv  ? "fi_recv"
                    : kind_ == ChannelKind::write ? "fi_write"
                                                  : "fi_read",
                    static_cast<long>(rc));
  return PostStatus::failed;
}

int Channel::poll(int max) {
  if (ready_ == 0 && !demux_.progress()) {
    error_ = demux_.error();
    return -1;
  }
  const int n = std::min(ready_, std::max(max, 0));
  ready_ -= n;
  return n;
}

std::string Channel::error() const { return error_; }

void Channel::completed(OpContext* ctx) {
  free_.push_back(ctx);
  ++ready_;
}

}  // namespace fabricgate::bench::fi
