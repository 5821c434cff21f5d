#pragma once
// Factory for libfabric measurements (family "rdma", backend "libfabric"). Vendor-free so the
// fixture family builds in every configuration: without libfabric headers the stub
// (libfabric_unavailable.cpp) answers every request with a skip reason.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "bench/engine/communicator.hpp"
#include "bench/engine/measured_op.hpp"
#include "bench/engine/message_window.hpp"

namespace fabricgate::bench {

// The provider name that means "whatever FI_PROVIDER selects": a suite written once can then be
// measured over shm and over tcp by changing only the environment (fabricgate ab), and its keys
// (rdma/libfabric/env/...) stay the same; params.provider records what was actually chosen.
inline constexpr const char* kProviderFromEnvironment = "env";

// Identical on every rank by construction (it comes from the suite file); the ranks still compare
// it when they exchange addresses, so a mismatch is an error, not a silent hang.
struct LibfabricConfig {
  std::string provider;  // fi_info prov_name: "tcp", "shm", "verbs", "efa", "cxi", ..., or "env"
  std::string domain;    // empty: the provider's first domain; else e.g. "lo", "mlx5_0"
  TransferOp op = TransferOp::write;
  std::uint64_t bytes = 0;
  int window = 64;             // operations in flight (bandwidth ops)
  bool device_memory = false;  // "memory": "device": buffers in GPU memory through FI_HMEM
  int gpu = -1;                // this rank's GPU, -1 when none
  std::chrono::nanoseconds timeout = std::chrono::seconds(30);
};

// Collective over all ranks (each calls it once per benchmark). Ranks pair up (0,1), (2,3), ...;
// the even rank of a pair initiates. Returns nullptr with `skip_reason` when the provider (or the
// build) cannot run it here; throws std::runtime_error on library errors. `chosen` receives what
// was picked: {"provider", "fabric", "domain", "fi_version", ...} for the record's params.
std::unique_ptr<MeasuredOp> make_libfabric_op(Communicator& comm, const LibfabricConfig& config,
                                              nlohmann::json& chosen, std::string& skip_reason);

// "1.17" (fi_version() of the library loaded), empty when built without libfabric.
std::string libfabric_runtime_version();

}  // namespace fabricgate::bench
