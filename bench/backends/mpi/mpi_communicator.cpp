#include "bench/backends/mpi/mpi_communicator.hpp"

#include <string>
#include <vector>

namespace fabricgate::bench {

MpiCommunicator::MpiCommunicator(int* argc, char*** argv) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  // Local rank from the shared-memory split, not from launcher-specific environment variables,
  // so it is right under mpirun, srun and anything else (issue: local rank → GPU).
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node_comm_);
  MPI_Comm_rank(node_comm_, &local_rank_);
  MPI_Comm_size(node_comm_, &local_size_);
  // Nodes = number of local rank 0s.
  int leader = local_rank_ == 0 ? 1 : 0;
  MPI_Allreduce(&leader, &node_count_, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&rank_, &node_leader_, 1, MPI_INT, MPI_MIN, node_comm_);
}

MpiCommunicator::~MpiCommunicator() {
  if (node_comm_ != MPI_COMM_NULL) MPI_Comm_free(&node_comm_);
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

void MpiCommunicator::barrier() { MPI_Barrier(MPI_COMM_WORLD); }

double MpiCommunicator::max(double value) {
  double out = value;
  MPI_Allreduce(&value, &out, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return out;
}

double MpiCommunicator::min(double value) {
  double out = value;
  MPI_Allreduce(&value, &out, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  return out;
}

std::int64_t MpiCommunicator::sum(std::int64_t value) {
  std::int64_t out = value;
  MPI_Allreduce(&value, &out, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  return out;
}

std::vector<std::string> MpiCommunicator::all_gather(const std::string& value) {
  int len = static_cast<int>(value.size());
  std::vector<int> lens(static_cast<std::size_t>(size_));
  MPI_Allgather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::vector<int> displs(static_cast<std::size_t>(size_), 0);
  int total = 0;
  for (int r = 0; r < size_; ++r) {
    displs[static_cast<std::size_t>(r)] = total;
    total += lens[static_cast<std::size_t>(r)];
  }
  std::string all(static_cast<std::size_t>(total), '\0');
  MPI_Allgatherv(value.data(), len, MPI_CHAR, all.data(), lens.data(), displs.data(), MPI_CHAR,
                 MPI_COMM_WORLD);
  std::vector<std::string> out;
  for (int r = 0; r < size_; ++r) {
    out.push_back(all.substr(static_cast<std::size_t>(displs[static_cast<std::size_t>(r)]),
                             static_cast<std::size_t>(lens[static_cast<std::size_t>(r)])));
  }
  return out;
}

std::vector<std::string> MpiCommunicator::gather(const std::string& value, int root) {
  int len = static_cast<int>(value.size());
  std::vector<int> lens(rank_ == root ? static_cast<std::size_t>(size_) : 0);
  MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, root, MPI_COMM_WORLD);
  std::vector<int> displs(lens.size(), 0);
  int total = 0;
  for (std::size_t r = 0; r < lens.size(); ++r) {
    displs[r] = total;
    total += lens[r];
  }
  std::string all(static_cast<std::size_t>(total), '\0');
  MPI_Gatherv(value.data(), len, MPI_CHAR, all.data(), lens.data(), displs.data(), MPI_CHAR, root,
              MPI_COMM_WORLD);
  std::vector<std::string> out;
  for (std::size_t r = 0; r < lens.size(); ++r) {
    out.push_back(
        all.substr(static_cast<std::size_t>(displs[r]), static_cast<std::size_t>(lens[r])));
  }
  return out;
}

bool MpiCommunicator::emulate_nodes(int nodes) {
  if (nodes < 1 || nodes > size_ || size_ % nodes != 0) return false;
  MPI_Comm emulated = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank_ / (size_ / nodes), rank_, &emulated);
  if (node_comm_ != MPI_COMM_NULL) MPI_Comm_free(&node_comm_);
  node_comm_ = emulated;
  MPI_Comm_rank(node_comm_, &local_rank_);
  MPI_Comm_size(node_comm_, &local_size_);
  MPI_Allreduce(&rank_, &node_leader_, 1, MPI_INT, MPI_MIN, node_comm_);
  node_count_ = nodes;
  return true;
}

std::string MpiCommunicator::broadcast(const std::string& value, int root) {
  int len = static_cast<int>(value.size());
  MPI_Bcast(&len, 1, MPI_INT, root, MPI_COMM_WORLD);
  std::string out = rank_ == root ? value : std::string(static_cast<std::size_t>(len), '\0');
  MPI_Bcast(out.data(), len, MPI_CHAR, root, MPI_COMM_WORLD);
  return out;
}

std::string mpi_library_version() {
  char buf[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(buf, &len);
  std::string v(buf, static_cast<std::size_t>(len));
  if (auto nl = v.find_first_of("\n,"); nl != std::string::npos) v.resize(nl);
  return v;
}

}  // namespace fabricgate::bench
