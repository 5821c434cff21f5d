#pragma once
// Collectives with MPI on host memory: a host-fabric gate for HPC users, and the backend that
// lets CI exercise the whole engine with real ranks and no GPU. On device memory too ("memory":
// "device") when the MPI library says it is CUDA-aware; otherwise those benchmarks skip with why.
#include <string>
#include <utility>

#include "bench/backends/mpi/mpi_communicator.hpp"
#include "bench/engine/collective_backend.hpp"

namespace fabricgate::bench {

class MpiCollectiveBackend final : public CollectiveBackend {
 public:
  // `gpu`: this rank's GPU for device-memory benchmarks (-1 with `gpu_reason` when none).
  MpiCollectiveBackend(MpiCommunicator& comm, int gpu, std::string gpu_reason)
      : comm_(comm), gpu_(gpu), gpu_reason_(std::move(gpu_reason)) {}
  std::string name() const override { return "mpi"; }
  std::string unsupported_reason(const CollectiveCall& call) const override;
  std::unique_ptr<MeasuredOp> create(const CollectiveCall& call, std::string& skip_reason) override;
  std::unique_ptr<MeasuredOp> create_pair_exchange(int peer, std::uint64_t bytes,
                                                   std::string& skip_reason) override;

 private:
  MpiCommunicator& comm_;
  int gpu_;
  std::string gpu_reason_;
};

}  // namespace fabricgate::bench
