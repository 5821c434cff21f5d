#pragma once
// Collectives with MPI on host memory: a host-fabric gate for HPC users, and the backend that
// lets CI exercise the whole engine with real ranks and no GPU.
#include "bench/backends/mpi/mpi_communicator.hpp"
#include "bench/engine/collective_backend.hpp"

namespace fabricgate::bench {

class MpiCollectiveBackend final : public CollectiveBackend {
 public:
  explicit MpiCollectiveBackend(MpiCommunicator& comm) : comm_(comm) {}
  std::string name() const override { return "mpi"; }
  std::string unsupported_reason(const CollectiveCall& call) const override;
  std::unique_ptr<MeasuredOp> create(const CollectiveCall& call, std::string& skip_reason) override;
  std::unique_ptr<MeasuredOp> create_pair_exchange(int peer, std::uint64_t bytes, std::string& skip_reason) override;

 private:
  MpiCommunicator& comm_;
};

}  // namespace fabricgate::bench
