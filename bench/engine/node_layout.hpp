#pragma once
// Which rank sits on which node: k nodes, g ranks per node, one representative (the lowest rank,
// local rank 0) per node. Built from every rank's node name, so emulated nodes (several "nodes" on
// one host, NCCL_HOSTID) and real ones look the same to fixtures and to the records.
#include <string>
#include <vector>

#include "bench/engine/communicator.hpp"

namespace fabricgate::bench {

struct NodeLayout {
  std::vector<std::string> names;  // per node, in order of the node's lowest rank
  std::vector<int> leader;         // per node: its representative rank
  std::vector<int> node_of_rank;   // per rank: node index
  int ranks_per_node_min = 0;
  int ranks_per_node_max = 0;
  bool emulated = false;

  int nodes() const { return static_cast<int>(names.size()); }
  bool uniform() const { return ranks_per_node_min == ranks_per_node_max; }
};

// Collective: every rank passes its own node name.
NodeLayout discover_nodes(Communicator& comm, const std::string& my_node_name, bool emulated);

// Emulation: rank r of n belongs to node r / (n / k); -1 when k < 1, k > n or n is not a
// multiple of k (the caller reports that as bad input).
int emulated_node_of(int rank, int nranks, int nodes);

// A node name as a benchmark-key component: [A-Za-z0-9_-] kept, anything else becomes '_'.
std::string key_safe_node_name(const std::string& name);

}  // namespace fabricgate::bench
