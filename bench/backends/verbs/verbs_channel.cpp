#include "bench/backends/verbs/verbs_channel.hpp"

#include <algorithm>
#include <cerrno>

#include "bench/backends/verbs/verbs_device.hpp"

namespace fabricgate::bench::verbs {

VerbsChannel::VerbsChannel(VerbKind kind, std::vector<ibv_qp*> qps, ibv_cq* cq, VerbTarget target)
    : kind_(kind), qps_(std::move(qps)), cq_(cq), target_(target) {}

PostStatus VerbsChannel::post(int /*slot*/) {
  ibv_qp* qp = qps_[next_qp_];
  ibv_sge sge{};
  sge.addr = target_.local_address;
  sge.length = target_.bytes;
  sge.lkey = target_.lkey;
  int rc = 0;
  if (kind_ == VerbKind::recv) {
    ibv_recv_wr wr{};
    ibv_recv_wr* bad = nullptr;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    rc = ibv_post_recv(qp, &wr, &bad);
  } else {
    ibv_send_wr wr{};
    ibv_send_wr* bad = nullptr;
    wr.sg_list = &sge;
    wr.num_sge = target_.bytes > 0 ? 1 : 0;
    wr.send_flags = IBV_SEND_SIGNALED;
    wr.opcode = kind_ == VerbKind::write  ? IBV_WR_RDMA_WRITE
                : kind_ == VerbKind::read ? IBV_WR_RDMA_READ
                                          : IBV_WR_SEND;
    wr.wr.rdma.remote_addr = target_.remote_address;
    wr.wr.rdma.rkey = target_.rkey;
    rc = ibv_post_send(qp, &wr, &bad);
  }
  if (rc == ENOMEM) return PostStatus::busy;  // queue full: completions make room
  if (rc != 0) {
    error_ = verbs_error(kind_ == VerbKind::recv ? "ibv_post_recv" : "ibv_post_send", rc);
    return PostStatus::failed;
  }
  next_qp_ = (next_qp_ + 1) % qps_.size();
  return PostStatus::posted;
}

int VerbsChannel::poll(int max) {
  ibv_wc wc[32];
  const int n = ibv_poll_cq(cq_, std::clamp(max, 1, 32), wc);
  if (n < 0) {
    error_ = "ibv_poll_cq failed";
    return -1;
  }
  for (int i = 0; i < n; ++i) {
    if (wc[i].status != IBV_WC_SUCCESS) {
      error_ = std::string("work completion error: ") + ibv_wc_status_str(wc[i].status) +
               " (vendor error " + std::to_string(wc[i].vendor_err) + ")";
      return -1;
    }
  }
  return n;
}

}  // namespace fabricgate::bench::verbs
