#pragma once
// A two-process Communicator over one TCP connection: the bootstrap for the two-host test, where
// each rank runs in its own network namespace and Open MPI cannot span them (its PMIx server is
// reachable only over the launching namespace's loopback). Every receive has a deadline.
#include <string>

#include "bench/engine/communicator.hpp"

namespace fabricgate::bench::testing {

class TcpPairCommunicator final : public Communicator {
 public:
  // Rank 0 listens on address:port, rank 1 connects to it (retrying until `timeout_s`).
  TcpPairCommunicator(int rank, const std::string& address, int port, int timeout_s);
  ~TcpPairCommunicator() override;
  TcpPairCommunicator(const TcpPairCommunicator&) = delete;
  TcpPairCommunicator& operator=(const TcpPairCommunicator&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return 2; }
  int local_rank() const override { return 0; }  // one rank per "host" (namespace)
  int local_size() const override { return 1; }
  int node_count() const override { return 2; }
  void barrier() override { exchange("b"); }
  double max(double value) override;
  double min(double value) override;
  std::int64_t sum(std::int64_t value) override;
  std::vector<std::string> all_gather(const std::string& value) override;
  std::string broadcast(const std::string& value, int root) override;

 private:
  std::string exchange(const std::string& mine);  // send ours, receive theirs
  int rank_;
  int fd_ = -1;
};

}  // namespace fabricgate::bench::testing
