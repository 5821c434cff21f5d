#pragma once
// Factory for ibverbs measurements (family "rdma", backend "verbs"): reliable-connected queue
// pairs, ib_write_bw-style windows of RDMA write / read / send, and a send/recv ping-pong for
// latency. Vendor-free so the fixture family builds in every configuration.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "bench/engine/communicator.hpp"
#include "bench/engine/measured_op.hpp"
#include "bench/engine/message_window.hpp"

namespace fabricgate::bench {

struct VerbsConfig {
  std::string device = "any";  // ibv device name, "any": the first one listed
  int port = 1;
  int gid_index = -1;  // -1: LID addressing (InfiniBand); >= 0: that GID (RoCE, or IB with GRH)
  int qps = 1;         // queue pairs per pair of ranks; operations go round-robin
  std::string transport = "rc";  // rc | srd (SRD exists only on EFA)
  TransferOp op = TransferOp::write;
  std::uint64_t bytes = 0;
  int window = 64;
  bool device_memory = false;  // GPU memory through ibv_reg_dmabuf_mr
  int gpu = -1;
  std::chrono::nanoseconds timeout = std::chrono::seconds(30);
};

// Collective over all ranks, like make_libfabric_op. `chosen` receives {"device", "port",
// "link_Gbps", "link", "transport", ...}. nullptr + `skip_reason` ("no RDMA device", ...) when it
// cannot run here; throws std::runtime_error on verbs errors.
std::unique_ptr<MeasuredOp> make_verbs_op(Communicator& comm, const VerbsConfig& config,
                                          nlohmann::json& chosen, std::string& skip_reason);

}  // namespace fabricgate::bench

namespace fabricgate::bench {

// Per-direction data rate of an InfiniBand/RoCE port in decimal Gb/s from ibv_port_attr's
// active_speed and active_width codes (after line encoding: EDR 4x = 100, HDR 4x = 200, NDR 4x
// = 400); 0 for codes we do not know. Vendor-free so it is unit-tested without a device.
double link_rate_gbps(unsigned active_speed, unsigned active_width);
// "EDR 4x", "HDR 2x", or "speed code 3 width code 9".
std::string link_name(unsigned active_speed, unsigned active_width);

}  // namespace fabricgate::bench
