#pragma once
// Reliable-connected queue pairs between two ranks: two completion queues (send side, receive
// side) shared by `count` QPs, brought up INIT → RTR → RTS from the peer's QP numbers, LID or GID
// exchanged through the Communicator.
#include <infiniband/verbs.h>

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/backends/verbs/verbs_device.hpp"

namespace fabricgate::bench::verbs {

class QueuePairs {
 public:
  // `depth`: work requests per QP and direction (the window).
  QueuePairs(Device& device, int count, int depth);
  ~QueuePairs();
  QueuePairs(const QueuePairs&) = delete;
  QueuePairs& operator=(const QueuePairs&) = delete;

  // What the peer needs to connect to us: {"lid", "gid", "qpns": [...], "psn"}.
  nlohmann::json local_info() const;
  // Moves every QP to RTS against the peer's QPs (same index ↔ same index).
  void connect(const nlohmann::json& peer);

  const std::vector<ibv_qp*>& qps() const { return qps_; }
  ibv_cq* send_cq() const { return send_cq_; }
  ibv_cq* recv_cq() const { return recv_cq_; }

 private:
  Device& device_;
  ibv_cq* send_cq_ = nullptr;
  ibv_cq* recv_cq_ = nullptr;
  std::vector<ibv_qp*> qps_;
  std::uint32_t psn_ = 0;
};

}  // namespace fabricgate::bench::verbs
