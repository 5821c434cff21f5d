// One libfabric measurement between the two ranks of a pair (0↔1, 2↔3, ...): RMA write or read,
// message send (a window of operations in flight), or ping-pong (latency = half a round trip).
#include <rdma/fi_errno.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <optional>
#include <stdexcept>

#include "bench/backends/cuda/gpu_memory.hpp"
#include "bench/backends/libfabric/fi_channel.hpp"
#include "bench/backends/libfabric/fi_endpoint.hpp"
#include "bench/backends/libfabric/libfabric_backend.hpp"
#include "bench/engine/peer_exchange.hpp"

namespace fabricgate::bench {

namespace {

std::string to_hex(const std::string& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (const unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

std::string from_hex(const std::string& hex) {
  std::string out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
    out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  return out;
}

struct FreeDeleter {
  void operator()(unsigned char* p) const { std::free(p); }
};

class LibfabricOp final : public MeasuredOp {
 public:
  LibfabricOp(Communicator& comm, const LibfabricConfig& config)
      : comm_(comm), cfg_(config), initiator_(comm.rank() % 2 == 0), peer_rank_(comm.rank() ^ 1) {}

  // Local half of the set-up; no communication. Empty `skip` and no throw: ready to exchange.
  void open_local(std::string& skip) {
    const bool rma = cfg_.op == TransferOp::write || cfg_.op == TransferOp::read;
    fi::InfoPtr info = fi::find_info({cfg_.provider, cfg_.domain, rma, cfg_.device_memory}, skip);
    if (!info) return;
    // Page-aligned: [0, bytes) is what we send/write/are read from, [bytes, 2·bytes) what we
    // receive.
    const std::size_t len = ((2 * cfg_.bytes + 4095) / 4096) * 4096;
    // Host memory is the buffer itself; with GPU memory it is the staging copy for fill and check.
    buffer_.reset(static_cast<unsigned char*>(std::aligned_alloc(4096, len)));
    if (!buffer_)
      throw std::runtime_error("out of host memory for " + std::to_string(len) + " bytes");
    if (cfg_.device_memory) {
      // The provider offers FI_HMEM; the buffer comes from the GPU runtime behind GpuMemory.
      gpu_ = allocate_gpu_memory(cfg_.gpu, len, skip);
      if (!gpu_) return;
    }
    endpoint_ = std::make_unique<fi::Endpoint>(std::move(info));
    try {
      endpoint_->register_buffer(base(), len, static_cast<std::uint64_t>(comm_.rank()) + 1,
                                 gpu_ ? gpu_->device() : -1);
    } catch (const std::runtime_error& e) {
      if (!gpu_) throw;
      // FI_HMEM covers several kinds of memory (CUDA, ROCr, ZE, ...): a library built without
      // CUDA support can offer it and still refuse CUDA buffers. That is "not offered here".
      skip = "provider " + std::string(endpoint_->info().fabric_attr->prov_name) +
             " offers FI_HMEM but cannot register CUDA memory: " + e.what();
    }
  }

  nlohmann::json card() const {
    const fi_info& i = endpoint_->info();
    const fi::RemoteBuffer view = endpoint_->remote_view();
    return {{"address", to_hex(endpoint_->address())},
            {"buffer", view.address},
            {"key", view.key},
            {"provider", i.fabric_attr->prov_name},
            {"fabric", i.fabric_attr->name},
            {"domain", i.domain_attr->name},
            {"op", to_string(cfg_.op)},
            {"bytes", cfg_.bytes},
            {"window", cfg_.window}};
  }

  void connect(const nlohmann::json& peer) {
    const nlohmann::json mine = card();
    for (const char* k : {"provider", "op", "bytes", "window"}) {
      if (peer[k] != mine[k]) {
        throw std::runtime_error(std::string("ranks disagree on ") + k + ": " + mine[k].dump() +
                                 " here, " + peer[k].dump() + " on rank " +
                                 std::to_string(peer_rank_));
      }
    }
    const fi_addr_t addr = endpoint_->insert_peer(from_hex(peer["address"].get<std::string>()));
    demux_.emplace(endpoint_->cq());
    const std::uint64_t remote_src = peer["buffer"].get<std::uint64_t>();
    const std::uint64_t key = peer["key"].get<std::uint64_t>();
    unsigned char* src = base();
    unsigned char* dst = base() + cfg_.bytes;
    void* desc = endpoint_->descriptor();
    const int w = cfg_.op == TransferOp::pingpong ? 1 : cfg_.window;
    using fi::ChannelKind;
    fi::ChannelTarget t{src, cfg_.bytes, desc, addr, 0, 0};
    switch (cfg_.op) {
      case TransferOp::write:
        t.remote_address = remote_src + cfg_.bytes;
        t.remote_key = key;
        data_ = std::make_unique<fi::Channel>(endpoint_->ep(), *demux_, ChannelKind::write, t, w);
        break;
      case TransferOp::read:
        t.local = dst;
        t.remote_address = remote_src;
        t.remote_key = key;
        data_ = std::make_unique<fi::Channel>(endpoint_->ep(), *demux_, ChannelKind::read, t, w);
        break;
      case TransferOp::send:
      case TransferOp::pingpong:
        data_ = std::make_unique<fi::Channel>(endpoint_->ep(), *demux_, ChannelKind::send, t, w);
        t.local = dst;
        recv_ = std::make_unique<fi::Channel>(endpoint_->ep(), *demux_, ChannelKind::recv, t, w);
        break;
    }
    // Zero-byte messages close an RMA batch: the target polls (and so progresses) until it arrives.
    fi::ChannelTarget fin{dst, 0, desc, addr, 0, 0};
    fin_send_ = std::make_unique<fi::Channel>(endpoint_->ep(), *demux_, ChannelKind::send, fin, 1);
    fin_recv_ = std::make_unique<fi::Channel>(endpoint_->ep(), *demux_, ChannelKind::recv, fin, 1);
  }

  void prepare_data() override {
    fill_payload(buffer_.get(), cfg_.bytes, comm_.rank());
    fill_payload_complement(buffer_.get() + cfg_.bytes, cfg_.bytes, expected_sender());
    if (gpu_) gpu_->upload(0, buffer_.get(), 2 * cfg_.bytes);
  }

  double run_batch(int count) override {
    comm_.barrier();  // start together; the slowest rank's clock then measures the batch
    const auto t0 = std::chrono::steady_clock::now();
    WindowResult r;
    if (error_.empty()) r = issue(count);
    const auto t1 = std::chrono::steady_clock::now();
    if (!r.ok() && error_.empty()) error_ = r.error;
    const double seconds = std::chrono::duration<double>(t1 - t0).count();
    return cfg_.op == TransferOp::pingpong ? seconds / 2 : seconds;  // ping-pong: half round trips
  }

  std::int64_t count_wrong() override {
    const bool receives = cfg_.op == TransferOp::pingpong ||
                          (cfg_.op == TransferOp::send && !initiator_) ||
                          (cfg_.op == TransferOp::write && !initiator_) ||
                          (cfg_.op == TransferOp::read && initiator_);
    if (!receives) return 0;
    if (gpu_) gpu_->download(cfg_.bytes, buffer_.get() + cfg_.bytes, cfg_.bytes);
    return count_wrong_payload(buffer_.get() + cfg_.bytes, cfg_.bytes, expected_sender());
  }

  std::string failure() const override { return error_; }

 private:
  // What the endpoint reads and writes: the GPU buffer, or the host buffer itself.
  unsigned char* base() const {
    return gpu_ ? static_cast<unsigned char*>(gpu_->data()) : buffer_.get();
  }

  // Whose data lands in our receive half: always the peer's (written, read, sent or echoed).
  int expected_sender() const { return peer_rank_; }

  WindowResult issue(int count) {
    return run_transfer(cfg_.op, initiator_, {*data_, recv_.get(), *fin_send_, *fin_recv_}, count,
                        cfg_.window, cfg_.timeout);
  }

  Communicator& comm_;
  LibfabricConfig cfg_;
  bool initiator_;
  int peer_rank_;
  std::unique_ptr<unsigned char, FreeDeleter> buffer_;  // outlives the endpoint (declared first)
  std::unique_ptr<GpuMemory> gpu_;                      // likewise; FI_HMEM benchmarks only
  std::unique_ptr<fi::Endpoint> endpoint_;
  std::optional<fi::CompletionDemux> demux_;
  std::unique_ptr<fi::Channel> data_, recv_, fin_send_, fin_recv_;
  std::string error_;
};

}  // namespace

std::unique_ptr<MeasuredOp> make_libfabric_op(Communicator& comm, const LibfabricConfig& config,
                                              nlohmann::json& chosen, std::string& skip_reason) {
  auto op = std::make_unique<LibfabricOp>(comm, config);
  std::string skip;
  std::string error;
  nlohmann::json card;
  try {
    op->open_local(skip);
    if (skip.empty()) card = op->card();
  } catch (const std::exception& e) {
    error = e.what();
  }
  const PeerCards peers = exchange_cards(comm, card, skip, error);
  if (!peers.skip_reason.empty()) {
    skip_reason = peers.skip_reason;
    return nullptr;
  }
  chosen = {{"provider", card["provider"]},
            {"fabric", card["fabric"]},
            {"domain", card["domain"]},
            {"fi_version", libfabric_runtime_version()}};
  if (const char* fi_provider = std::getenv("FI_PROVIDER");
      config.provider == kProviderFromEnvironment && fi_provider) {
    chosen["fi_provider_env"] = fi_provider;  // what selected params.provider
  }
  op->connect(peers.cards[static_cast<std::size_t>(comm.rank() ^ 1)]);
  return op;
}

std::string libfabric_runtime_version() {
  const std::uint32_t v = fi_version();
  return std::to_string(FI_MAJOR(v)) + "." + std::to_string(FI_MINOR(v));
}

}  // namespace fabricgate::bench
