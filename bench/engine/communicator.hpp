#pragma once
// The runtime seen by the engine and fixtures: who am I, how many are we, meet, and exchange small
// values. The MPI backend implements it over MPI_COMM_WORLD; SoloCommunicator is the one-process
// version for unit tests. Fixtures never include <mpi.h> (UCX perf's rte idea).
#include <cstdint>
#include <string>
#include <vector>

namespace fabricgate::bench {

class Communicator {
 public:
  virtual ~Communicator() = default;

  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Rank among the processes of this host, and how many share it (MPI_Comm_split_type SHARED).
  virtual int local_rank() const = 0;
  virtual int local_size() const = 0;
  // Number of distinct hosts in the job.
  virtual int node_count() const = 0;

  virtual void barrier() = 0;
  virtual double max(double value) = 0;
  virtual double min(double value) = 0;
  virtual std::int64_t sum(std::int64_t value) = 0;
  // Every rank's string, indexed by rank (addresses, host facts).
  virtual std::vector<std::string> all_gather(const std::string& value) = 0;
  // root's value on every rank.
  virtual std::string broadcast(const std::string& value, int root) = 0;
  // Every rank's string on `root` (indexed by rank), nothing elsewhere: per-node facts go to rank 0
  // only, so 8192 ranks do not each hold everyone's copy. The default goes through all_gather.
  virtual std::vector<std::string> gather(const std::string& value, int root) {
    std::vector<std::string> all = all_gather(value);
    if (rank() != root) all.clear();
    return all;
  }

  // True on every rank when `ok` is true on every rank: decisions such as "skip this benchmark"
  // must be collective or the ranks deadlock.
  bool all_agree(bool ok) { return min(ok ? 1.0 : 0.0) > 0.5; }
};

// A job of one process: every collective operation is the identity.
class SoloCommunicator final : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  int local_rank() const override { return 0; }
  int local_size() const override { return 1; }
  int node_count() const override { return 1; }
  void barrier() override {}
  double max(double value) override { return value; }
  double min(double value) override { return value; }
  std::int64_t sum(std::int64_t value) override { return value; }
  std::vector<std::string> all_gather(const std::string& value) override { return {value}; }
  std::string broadcast(const std::string& value, int /*root*/) override { return value; }
};

}  // namespace fabricgate::bench
