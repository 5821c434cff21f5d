#pragma once
// Verbs behind the message-window interface: RDMA write / read / send on the send queues (round
// robin over the QPs), or posted receives; completions from the matching completion queue.
#include <infiniband/verbs.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bench/engine/message_window.hpp"

namespace fabricgate::bench::verbs {

enum class VerbKind { send, recv, write, read };

struct VerbTarget {
  std::uint64_t local_address = 0;
  std::uint32_t bytes = 0;
  std::uint32_t lkey = 0;
  std::uint64_t remote_address = 0;  // write / read
  std::uint32_t rkey = 0;
};

class VerbsChannel final : public WindowChannel {
 public:
  VerbsChannel(VerbKind kind, std::vector<ibv_qp*> qps, ibv_cq* cq, VerbTarget target);
  PostStatus post(int slot) override;
  int poll(int max) override;
  std::string error() const override { return error_; }

 private:
  VerbKind kind_;
  std::vector<ibv_qp*> qps_;
  ibv_cq* cq_;
  VerbTarget target_;
  std::size_t next_qp_ = 0;
  std::string error_;
};

}  // namespace fabricgate::bench::verbs
