#include "bench/backends/verbs/verbs_queue_pair.hpp"

#include <algorithm>
#include <cerrno>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>

namespace fabricgate::bench::verbs {

namespace {

void check(const char* call, int rc) {
  if (rc != 0) throw std::runtime_error(verbs_error(call, rc));
}

std::string gid_hex(const ibv_gid& gid) {
  std::string out;
  for (const std::uint8_t byte : gid.raw) fmt::format_to(std::back_inserter(out), "{:02x}", byte);
  return out;
}

ibv_gid gid_from_hex(const std::string& hex) {
  ibv_gid gid{};
  for (std::size_t i = 0; i < 16 && 2 * i + 1 < hex.size(); ++i) {
    gid.raw[i] = static_cast<std::uint8_t>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  }
  return gid;
}

}  // namespace

QueuePairs::QueuePairs(Device& device, int count, int depth) : device_(device) {
  const int qp_depth = std::min(depth, device.device_attr().max_qp_wr);
  const int cq_depth = std::min(qp_depth * count + 1, device.device_attr().max_cqe);
  send_cq_ = ibv_create_cq(device.context(), cq_depth, nullptr, nullptr, 0);
  if (!send_cq_) throw std::runtime_error(verbs_error("ibv_create_cq", errno));
  recv_cq_ = ibv_create_cq(device.context(), cq_depth, nullptr, nullptr, 0);
  if (!recv_cq_) throw std::runtime_error(verbs_error("ibv_create_cq", errno));
  for (int i = 0; i < count; ++i) {
    ibv_qp_init_attr attr{};
    attr.send_cq = send_cq_;
    attr.recv_cq = recv_cq_;
    attr.qp_type = IBV_QPT_RC;
    attr.sq_sig_all = 1;  // every operation completes visibly: the window counts completions
    attr.cap.max_send_wr = static_cast<std::uint32_t>(qp_depth);
    attr.cap.max_recv_wr = static_cast<std::uint32_t>(qp_depth);
    attr.cap.max_send_sge = 1;
    attr.cap.max_recv_sge = 1;
    ibv_qp* qp = ibv_create_qp(device.pd(), &attr);
    if (!qp) throw std::runtime_error(verbs_error("ibv_create_qp", errno));
    qps_.push_back(qp);
  }
  psn_ = static_cast<std::uint32_t>(qps_.front()->qp_num * 7919u) & 0xffffffu;  // any 24-bit value
}

QueuePairs::~QueuePairs() {
  for (ibv_qp* qp : qps_) ibv_destroy_qp(qp);
  if (recv_cq_) ibv_destroy_cq(recv_cq_);
  if (send_cq_) ibv_destroy_cq(send_cq_);
}

nlohmann::json QueuePairs::local_info() const {
  nlohmann::json qpns = nlohmann::json::array();
  for (const ibv_qp* qp : qps_) qpns.push_back(qp->qp_num);
  return {{"lid", device_.port_attr().lid},
          {"gid", gid_hex(device_.gid())},
          {"qpns", qpns},
          {"psn", psn_},
          {"mtu", static_cast<int>(device_.port_attr().active_mtu)}};
}

void QueuePairs::connect(const nlohmann::json& peer) {
  const auto& peer_qpns = peer.at("qpns");
  if (peer_qpns.size() != qps_.size())
    throw std::runtime_error("peer has a different number of queue pairs");
  const std::uint8_t port = static_cast<std::uint8_t>(device_.port());
  // The smaller MTU of the two ports; reads in flight bounded by what the device allows.
  const auto mtu = static_cast<ibv_mtu>(
      std::min(static_cast<int>(device_.port_attr().active_mtu), peer.at("mtu").get<int>()));
  const auto rd_atomic =
      static_cast<std::uint8_t>(std::clamp(device_.device_attr().max_qp_rd_atom, 1, 16));
  for (std::size_t i = 0; i < qps_.size(); ++i) {
    ibv_qp_attr a{};
    a.qp_state = IBV_QPS_INIT;
    a.pkey_index = 0;
    a.port_num = port;
    a.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
    check("ibv_modify_qp(INIT)",
          ibv_modify_qp(qps_[i], &a,
                        IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS));

    a = {};
    a.qp_state = IBV_QPS_RTR;
    a.path_mtu = mtu;
    a.dest_qp_num = peer_qpns[i].get<std::uint32_t>();
    a.rq_psn = peer.at("psn").get<std::uint32_t>();
    a.max_dest_rd_atomic = rd_atomic;
    a.min_rnr_timer = 12;
    a.ah_attr.dlid = peer.at("lid").get<std::uint16_t>();
    a.ah_attr.port_num = port;
    if (device_.gid_index() >= 0) {
      a.ah_attr.is_global = 1;
      a.ah_attr.grh.dgid = gid_from_hex(peer.at("gid").get<std::string>());
      a.ah_attr.grh.sgid_index = static_cast<std::uint8_t>(device_.gid_index());
      a.ah_attr.grh.hop_limit = 64;
    }
    check("ibv_modify_qp(RTR)",
          ibv_modify_qp(qps_[i], &a,
                        IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
                            IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER));
    a = {};
    a.qp_state = IBV_QPS_RTS;
    a.timeout = 14;  // ~67 ms local ACK timeout
    a.retry_cnt = 7;
    a.rnr_retry = 7;  // a receive not yet posted is retried, not an error
    a.sq_psn = psn_;
    a.max_rd_atomic = rd_atomic;
    check("ibv_modify_qp(RTS)",
          ibv_modify_qp(qps_[i], &a,
                        IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                            IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC));
  }
}

}  // namespace fabricgate::bench::verbs
