// One verbs measurement between the two ranks of a pair (0↔1, 2↔3, ...) over RC queue pairs:
// RDMA write / read or send with a window in flight (ib_write_bw style), or a send/recv ping-pong
// (latency = half a round trip); host or GPU memory (dmabuf, else peer memory). Untested on
// hardware here: no machine of ours has an RDMA device.
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <stdexcept>

#include "bench/backends/cuda/gpu_memory.hpp"
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
      skip = device_->is_efa()
                 ? "SRD on EFA is not implemented in this backend (RC only)"
                 : "SRD exists only on EFA devices; " + device_->name() + " is not one";
      return;
    }
    if (cfg_.bytes > device_->port_attr().max_msg_sz) {
      skip = std::to_string(cfg_.bytes) + " bytes is above the port's largest message (" +
             std::to_string(device_->port_attr().max_msg_sz) + ")";
      return;
    }
    const std::size_t len = ((2 * cfg_.bytes + 4095) / 4096) * 4096;
    // Host memory is the buffer itself; with GPU memory it is the staging copy for fill and check.
    buffer_.reset(static_cast<unsigned char*>(std::aligned_alloc(4096, len)));
    if (!buffer_)
      throw std::runtime_error("out of host memory for " + std::to_string(len) + " bytes");
    if (cfg_.device_memory) {
      gpu_ = allocate_gpu_memory(cfg_.gpu, len, skip);
      if (!gpu_ || !register_gpu(len, skip)) return;
    } else {
      mr_ = device_->register_host(buffer_.get(), len);
    }
    qps_ = std::make_unique<verbs::QueuePairs>(*device_, cfg_.qps, cfg_.window + 1);
  }

  nlohmann::json card() const {
    nlohmann::json c = qps_->local_info();
    c["buffer"] = reinterpret_cast<std::uintptr_t>(base());
    c["rkey"] = mr_->rkey;
    c["op"] = to_string(cfg_.op);
    c["bytes"] = cfg_.bytes;
    c["window"] = cfg_.window;
    return c;
  }

  nlohmann::json facts() const {
    const ibv_port_attr& p = device_->port_attr();
    return {{"device", device_->name()},
            {"port", device_->port()},
            {"gid_index", device_->gid_index()},
            {"link_layer", p.link_layer == IBV_LINK_LAYER_ETHERNET ? "Ethernet" : "InfiniBand"},
            {"link", link_name(p.active_speed, p.active_width)},
            {"link_Gbps", link_rate_gbps(p.active_speed, p.active_width)},
            {"gpu_registration",
             gpu_registration_.empty() ? nlohmann::json() : nlohmann::json(gpu_registration_)}};
  }

  void connect(const nlohmann::json& peer) {
    for (const char* k : {"op", "bytes", "window"}) {
      if (peer[k] != card()[k]) throw std::runtime_error(std::string("ranks disagree on ") + k);
    }
    qps_->connect(peer);
    const auto base = reinterpret_cast<std::uintptr_t>(this->base());
    const auto remote = peer["buffer"].get<std::uint64_t>();
    const auto rkey = peer["rkey"].get<std::uint32_t>();
    const auto bytes = static_cast<std::uint32_t>(cfg_.bytes);
    const std::vector<ibv_qp*>& qps = qps_->qps();
    using verbs::VerbKind;
    switch (cfg_.op) {
      case TransferOp::write:
        data_ = std::make_unique<verbs::VerbsChannel>(
            VerbKind::write, qps, qps_->send_cq(),
            verbs::VerbTarget{base, bytes, mr_->lkey, remote + cfg_.bytes, rkey});
        break;
      case TransferOp::read:
        data_ = std::make_unique<verbs::VerbsChannel>(
            VerbKind::read, qps, qps_->send_cq(),
            verbs::VerbTarget{base + cfg_.bytes, bytes, mr_->lkey, remote, rkey});
        break;
      case TransferOp::send:
      case TransferOp::pingpong:
        data_ = std::make_unique<verbs::VerbsChannel>(
            VerbKind::send, qps, qps_->send_cq(), verbs::VerbTarget{base, bytes, mr_->lkey, 0, 0});
        recv_ = std::make_unique<verbs::VerbsChannel>(
            VerbKind::recv, qps, qps_->recv_cq(),
            verbs::VerbTarget{base + cfg_.bytes, bytes, mr_->lkey, 0, 0});
        break;
    }
    // Zero-byte "done" message on the first QP closes an RMA batch (never in flight with data_).
    const std::vector<ibv_qp*> first{qps.front()};
    fin_send_ = std::make_unique<verbs::VerbsChannel>(VerbKind::send, first, qps_->send_cq(),
                                                      verbs::VerbTarget{base, 0, mr_->lkey, 0, 0});
    fin_recv_ = std::make_unique<verbs::VerbsChannel>(
        VerbKind::recv, first, qps_->recv_cq(),
        verbs::VerbTarget{base + cfg_.bytes, 0, mr_->lkey, 0, 0});
  }

  void prepare_data() override {
    fill_payload(buffer_.get(), cfg_.bytes, comm_.rank());
    fill_payload_complement(buffer_.get() + cfg_.bytes, cfg_.bytes, peer_rank_);
    if (gpu_) gpu_->upload(0, buffer_.get(), 2 * cfg_.bytes);
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
    const bool receives = cfg_.op == TransferOp::pingpong ||
                          (cfg_.op == TransferOp::send && !initiator_) ||
                          (cfg_.op == TransferOp::write && !initiator_) ||
                          (cfg_.op == TransferOp::read && initiator_);
    if (!receives) return 0;
    if (gpu_) gpu_->download(cfg_.bytes, buffer_.get() + cfg_.bytes, cfg_.bytes);
    return count_wrong_payload(buffer_.get() + cfg_.bytes, cfg_.bytes, peer_rank_);
  }

  std::string failure() const override { return error_; }

 private:
  // What the NIC reads and writes: the GPU buffer, or the host buffer itself.
  unsigned char* base() const {
    return gpu_ ? static_cast<unsigned char*>(gpu_->data()) : buffer_.get();
  }

  // GPU memory for the NIC: a dmabuf registration first (upstream kernels, no extra module),
  // else the peer-memory path (nvidia-peermem lets ibv_reg_mr take the GPU pointer). Which one
  // worked goes into params (gpu_registration); false with both reasons when neither did.
  bool register_gpu(std::size_t len, std::string& skip) {
    std::string why_dmabuf;
    const GpuMemory::Dmabuf dmabuf = gpu_->export_dmabuf(why_dmabuf);
    if (dmabuf.fd >= 0) {
      try {
        mr_ = device_->register_dmabuf(dmabuf.fd, dmabuf.offset, len, gpu_->data());
        gpu_registration_ = "dmabuf";
      } catch (const std::runtime_error& e) {
        why_dmabuf = e.what();
      }
      ::close(dmabuf.fd);  // the MR holds its own reference to the buffer
      if (mr_) return true;
    }
    try {
      mr_ = device_->register_host(gpu_->data(), len);
      gpu_registration_ = "peer-memory";
      return true;
    } catch (const std::runtime_error& e) {
      skip = "GPU memory cannot be registered with " + device_->name() + ": dmabuf: " + why_dmabuf +
             "; peer memory (ibv_reg_mr on the GPU pointer, needs nvidia-peermem): " + e.what();
      return false;
    }
  }

  WindowResult issue(int count) {
    return run_transfer(cfg_.op, initiator_, {*data_, recv_.get(), *fin_send_, *fin_recv_}, count,
                        cfg_.window, cfg_.timeout);
  }

  Communicator& comm_;
  VerbsConfig cfg_;
  bool initiator_;
  int peer_rank_;
  std::unique_ptr<unsigned char, FreeDeleter> buffer_;  // declared first: released last
  std::unique_ptr<GpuMemory> gpu_;                      // likewise (device-memory benchmarks)
  std::string gpu_registration_;                        // "dmabuf" or "peer-memory"
  std::unique_ptr<verbs::Device> device_;               // owns the MR, PD and context
  ibv_mr* mr_ = nullptr;
  std::unique_ptr<verbs::QueuePairs> qps_;  // destroyed before the device
  std::unique_ptr<verbs::VerbsChannel> data_, recv_, fin_send_, fin_recv_;
  std::string error_;
};

}  // namespace

std::unique_ptr<MeasuredOp> make_verbs_op(Communicator& comm, const VerbsConfig& config,
                                          nlohmann::json& chosen, std::string& skip_reason) {
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
