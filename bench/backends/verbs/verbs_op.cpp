// One verbs measurement between the two ranks of a pair (0↔1, 2↔3, ...) over RC queue pairs:
// RDMA write / read or send with a window in flight (ib_write_bw style), or a send/recv ping-pong
// (latency = half a round trip). Untested on hardware here: no machine of ours has an RDMA device.
#include <chrono>
#include <cstdlib>
#include <memory>
#include <stdexcept>

#include "bench/backends/verbs/verbs_backend.hpp"
#include "bench/backends/verbs/verbs_channel.hpp"
#include "bench/backends/verbs/verbs_device.hpp"
#include "bench/backends/verbs/verbs_queue_pair.hpp"
#include "bench/engine/peer_exchange.hpp"

namespace fabricgate::bench {

namespace {

struct FreeDeleter {
  void operator()(unsigned char* p) const { std::free(p); }
};

class VerbsOp final : public MeasuredOp {
 public:
  VerbsOp(Communicator& comm, const VerbsConfig& config)
      : comm_(comm), cfg_(config), initiator_(comm.rank() % 2 == 0), peer_rank_(comm.rank() ^ 1) {}

  // Local set-up, no communication.
  void open_local(std::string& skip) {
    device_ = verbs::Device::open({cfg_.device, cfg_.port, cfg_.gid_index}, skip);
    if (!device_) return;
    if (cfg_.transport == "srd") {
      // SRD is an EFA transport reached through efadv_create_qp_ex; this backend drives RC only.
      skip = device_->is_efa() ? "SRD on EFA is not implemented in this backend (RC only)"
                               : "SRD exists only on EFA devices; " + device_->name() + " is not one";
      return;
    }
    if (cfg_.device_memory) {
      // Planned path: GpuMemory exported as a dmabuf fd (cuMemGetHandleForAddressRange) and
      // registered with ibv_reg_dmabuf_mr. Not written: no machine here has an RDMA device to
      // prove it on, and an unproven registration path would measure nothing anyone can trust.
      skip = cfg_.gpu < 0 ? "no GPU on this rank (device memory requested)"
                          : "GPU memory over verbs (dmabuf registration) is not implemented in this backend";
      return;
    }
    if (cfg_.bytes > device_->port_attr().max_msg_sz) {
      skip = std::to_string(cfg_.bytes) + " bytes is above the port's largest message (" +
             std::to_string(device_->port_attr().max_msg_sz) + ")";
      return;
    }
    const std::size_t len = ((2 * cfg_.bytes + 4095) / 4096) * 4096;
    buffer_.reset(static_cast<unsigned char*>(std::aligned_alloc(4096, len)));
    if (!buffer_) throw std::runtime_error("out of host memory for " + std::to_string(len) + " bytes");
    mr_ = device_->register_host(buffer_.get(), len);
    qps_ = std::make_unique<verbs::QueuePairs>(*device_, cfg_.qps, cfg_.window + 1);
  }

  nlohmann::json card() const {
    nlohmann::json c = qps_->local_info();
    c["buffer"] = reinterpret_cast<std::uintptr_t>(buffer_.get());
    c["rkey"] = mr_->rkey;
    c["op"] = to_string(cfg_.op);
    c["bytes"] = cfg_.bytes;
    c["window"] = cfg_.window;
    return c;
  }

  nlohmann::json facts() const {
    const ibv_port_attr& p = device_->port_attr();
    return {{"device", device_->name()}, {"port", device_->port()}, {"gid_index", device_->gid_index()},
            {"link_layer", p.link_layer == IBV_LINK_LAYER_ETHERNET ? "Ethernet" : "InfiniBand"},
            {"link", link_name(p.active_speed, p.active_width)},
            {"link_Gbps", link_rate_gbps(p.active_speed, p.active_width)}};
  }

  void connect(const nlohmann::json& peer) {
    for (const char* k : {"op", "bytes", "window"}) {
      if (peer[k] != card()[k]) throw std::runtime_error(std::string("ranks disagree on ") + k);
    }
    qps_->connect(peer);
    const auto base = reinterpret_cast<std::uintptr_t>(buffer_.get());
    const auto remote = peer["buffer"].get<std::uint64_t>();
    const auto rkey = peer["rkey"].get<std::uint32_t>();
    const auto bytes = static_cast<std::uint32_t>(cfg_.bytes);
    const std::vector<ibv_qp*>& qps = qps_->qps();
    using verbs::VerbKind;
    switch (cfg_.op) {
      case TransferOp::write:
        data_ = std::make_unique<verbs::VerbsChannel>(VerbKind::write, qps, qps_->send_cq(), verbs::VerbTarget{base, bytes, mr_->lkey, remote + cfg_.bytes, rkey});
        break;
      case TransferOp::read:
        data_ = std::make_unique<verbs::VerbsChannel>(VerbKind::read, qps, qps_->send_cq(), verbs::VerbTarget{base + cfg_.bytes, bytes, mr_->lkey, remote, rkey});
        break;
      case TransferOp::send:
      case TransferOp::pingpong:
        data_ = std::make_unique<verbs::VerbsChannel>(VerbKind::send, qps, qps_->send_cq(), verbs::VerbTarget{base, bytes, mr_->lkey, 0, 0});
        recv_ = std::make_unique<verbs::VerbsChannel>(VerbKind::recv, qps, qps_->recv_cq(), verbs::VerbTarget{base + cfg_.bytes, bytes, mr_->lkey, 0, 0});
        break;
    }
    // Zero-byte "done" message on the first QP closes an RMA batch (never in flight with data_).
    const std::vector<ibv_qp*> first{qps.front()};
    fin_send_ = std::make_unique<verbs::VerbsChannel>(VerbKind::send, first, qps_->send_cq(), verbs::VerbTarget{base, 0, mr_->lkey, 0, 0});
    fin_recv_ = std::make_unique<verbs::VerbsChannel>(VerbKind::recv, first, qps_->recv_cq(), verbs::VerbTarget{base + cfg_.bytes, 0, mr_->lkey, 0, 0});
  }

  void prepare_data() override {
    fill_payload(buffer_.get(), cfg_.bytes, comm_.rank());
    fill_payload_complement(buffer_.get() + cfg_.bytes, cfg_.bytes, peer_rank_);
  }

  double run_batch(int count) override {
    comm_.barrier();
    const auto t0 = std::chrono::steady_clock::now();
    WindowResult r;
    if (error_.empty()) r = issue(count);
    const auto t1 = std::chrono::steady_clock::now();
    if (!r.ok() && error_.empty()) error_ = r.error;
    const double seconds = std::chrono::duration<double>(t1 - t0).count();
    return cfg_.op == TransferOp::pingpong ? seconds / 2 : seconds;
  }

  std::int64_t count_wrong() override {
    const bool receives = cfg_.op == TransferOp::pingpong || (cfg_.op == TransferOp::send && !initiator_) ||
                          (cfg_.op == TransferOp::write && !initiator_) || (cfg_.op == TransferOp::read && initiator_);
    return receives ? count_wrong_payload(buffer_.get() + cfg_.bytes, cfg_.bytes, peer_rank_) : 0;
  }

  std::string failure() const override { return error_; }

 private:
  WindowResult issue(int count) {
    return run_transfer(cfg_.op, initiator_, {*data_, recv_.get(), *fin_send_, *fin_recv_}, count, cfg_.window,
                        cfg_.timeout);
  }

  Communicator& comm_;
  VerbsConfig cfg_;
  bool initiator_;
  int peer_rank_;
  std::unique_ptr<unsigned char, FreeDeleter> buffer_;  // declared first: released last
  std::unique_ptr<verbs::Device> device_;               // owns the MR, PD and context
  ibv_mr* mr_ = nullptr;
  std::unique_ptr<verbs::QueuePairs> qps_;              // destroyed before the device
  std::unique_ptr<verbs::VerbsChannel> data_, recv_, fin_send_, fin_recv_;
  std::string error_;
};

}  // namespace

std::unique_ptr<MeasuredOp> make_verbs_op(Communicator& comm, const VerbsConfig& config, nlohmann::json& chosen,
                                          std::string& skip_reason) {
  auto op = std::make_unique<VerbsOp>(comm, config);
  std::string skip;
  std::string error;
  nlohmann::json card = nlohmann::json::object();
  try {
    op->open_local(skip);
    if (skip.empty()) {
      card = op->card();
      chosen = op->facts();
    }
  } catch (const std::exception& e) {
    error = e.what();
  }
  const PeerCards peers = exchange_cards(comm, card, skip, error);
  if (!peers.skip_reason.empty()) {
    skip_reason = peers.skip_reason;
    return nullptr;
  }
  op->connect(peers.cards[static_cast<std::size_t>(comm.rank() ^ 1)]);
  return op;
}

}  // namespace fabricgate::bench
