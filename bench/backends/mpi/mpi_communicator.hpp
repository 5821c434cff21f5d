#pragma once
// Communicator over MPI_COMM_WORLD. Construction initialises MPI (MPI_THREAD_MULTIPLE is not
// needed: only the main thread talks MPI), destruction finalises it.
#include <mpi.h>

#include "bench/engine/communicator.hpp"

namespace fabricgate::bench {

class MpiCommunicator final : public Communicator {
 public:
  MpiCommunicator(int* argc, char*** argv);
  ~MpiCommunicator() override;
  MpiCommunicator(const MpiCommunicator&) = delete;
  MpiCommunicator& operator=(const MpiCommunicator&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int local_rank() const override { return local_rank_; }
  int local_size() const override { return local_size_; }
  int node_count() const override { return node_count_; }
  // The lowest world rank sharing this rank's node (its shared-memory group): a node identity
  // that does not depend on host names.
  int node_leader() const { return node_leader_; }
  void barrier() override;
  double max(double value) override;
  double min(double value) override;
  std::int64_t sum(std::int64_t value) override;
  std::vector<std::string> all_gather(const std::string& value) override;
  std::string broadcast(const std::string& value, int root) override;
  std::vector<std::string> gather(const std::string& value, int root) override;

  // Pretends the job spans `nodes` nodes: rank r belongs to node r / (n / nodes). Local rank,
  // local size and node count then follow the emulated split (collective; call it before anything
  // reads them, and after the GPU was chosen from the host's real local rank). Returns false when
  // n is not a multiple of `nodes`.
  bool emulate_nodes(int nodes);

  MPI_Comm world() const { return MPI_COMM_WORLD; }

 private:
  int rank_ = 0;
  int size_ = 1;
  int local_rank_ = 0;
  int local_size_ = 1;
  int node_count_ = 1;
  int node_leader_ = 0;
  MPI_Comm node_comm_ = MPI_COMM_NULL;
};

// "Open MPI v4.1.4, …" (MPI_Get_library_version, first line).
std::string mpi_library_version();

}  // namespace fabricgate::bench
