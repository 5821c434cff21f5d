#pragma once
// A library that runs collectives (MPI on host memory, NCCL on GPU memory). The collective's
// semantics come from CollectiveDef; a backend only allocates, calls its library and times.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "bench/engine/collective.hpp"
#include "bench/engine/measured_op.hpp"
#include "core/benchmark_result.hpp"

namespace fabricgate::bench {

struct CollectiveCall {
  const CollectiveDef* def = nullptr;
  DataType dtype = DataType::float32;
  RedOp redop = RedOp::sum;
  int root = 0;
  bool in_place = false;
  CollectiveCounts counts;
  bool graph = false;  // CUDA-graph mode: one sample's operations captured and launched as a graph
  // MPI on GPU buffers (suite "memory": "device", CUDA-aware MPI only). NCCL always uses GPU
  // memory.
  bool device_memory = false;
};

class CollectiveBackend {
 public:
  virtual ~CollectiveBackend() = default;
  virtual std::string name() const = 0;  // "mpi", "nccl": the key's backend part
  virtual int gpus_per_process() const { return 1; }
  // NCCL communicators created non-blocking: a different launch path with its own latency, so
  // such keys end in /nonblocking and never meet a blocking baseline.
  virtual bool nonblocking() const { return false; }
  // Empty when the backend can run the call; otherwise why not (e.g. "MPI has no float16").
  virtual std::string unsupported_reason(const CollectiveCall& call) const = 0;
  // Allocates and prepares one benchmark's buffers; nullptr + reason to skip (no memory, no GPU).
  virtual std::unique_ptr<MeasuredOp> create(const CollectiveCall& call,
                                             std::string& skip_reason) = 0;
  // Called on every rank when a benchmark starts/ends, so capture can attribute what the library
  // chose (algorithm, protocol, channels) to the benchmark key. Returns nothing when nothing
  // captured.
  virtual void begin_capture(const std::string& /*key*/) {}
  virtual std::optional<Choice> end_capture(const std::string& /*key*/) { return std::nullopt; }
  // Node-pair test (family "nodepairs"): `bytes` sent to and received from `peer` at once, per
  // operation; peer < 0 means this rank idles through the batches (it still meets the others at
  // the batch's barrier). Buffers hold the message-window payload (fill_payload) for the check.
  virtual std::unique_ptr<MeasuredOp> create_pair_exchange(int /*peer*/, std::uint64_t /*bytes*/,
                                                           std::string& skip_reason) {
    skip_reason = "backend " + name() + " has no node-pair exchange";
    return nullptr;
  }
};

// The data pattern on host memory, shared by the backends (they stage through the host for GPU
// memory). Fills rank's send buffer (send_count elements).
void fill_send_buffer(const CollectiveCall& call, int rank, int nranks, void* host_send);
// Counts receive-buffer elements (recv_count) that differ from the expected pattern result.
std::int64_t count_wrong_elements(const CollectiveCall& call, int rank, int nranks,
                                  const void* host_recv);

}  // namespace fabricgate::bench
