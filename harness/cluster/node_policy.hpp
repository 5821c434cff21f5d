#pragma once
// How far `fabricgate nodes` may go on its own (policies/nodes.json, schema fabricgate.nodes/1;
// docs/MULTINODE.md "Node actions"):
//   drain_budget: a run whose blamed nodes, with the nodes fabricgate already holds drained among
//   the allocation's, would exceed max(min_nodes, floor(share x the allocation's nodes)) drains
//   none: so wide a fault is the fabric's, the software's or the baseline's, not the nodes'
//   (FABRIC-WIDE). Defaults: share 0.10, min_nodes 1 (NVSentinel's breaker stops at 50 %,
//   OpenShift's NHC at 49 %, kubernetes/perf-tests at max(4, 1 %): a gate that drains on its own
//   stays well under them).
//   resume_after_passing_runs: passing runs of a node fabricgate drained, recorded in the store,
//   before `nodes --resume` returns it (default 2).
// No file: the defaults. A bad file is an input error naming the file and field (exit 2).
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace fabricgate::cluster {

inline constexpr const char* kNodePolicySchema = "fabricgate.nodes/1";

struct NodePolicy {
  double drain_share = 0.10;
  int drain_min_nodes = 1;
  int resume_after_passing_runs = 2;
  std::string source = "defaults (no policies/nodes.json)";
};

// The first <dir>/nodes.json among `dirs`, else the defaults.
NodePolicy find_node_policy(const std::vector<std::filesystem::path>& dirs);
NodePolicy load_node_policy(const std::filesystem::path& file);

// How many of `allocation_nodes` may be drained at once: max(min_nodes, floor(share x nodes)).
std::size_t drain_budget(const NodePolicy& policy, std::size_t allocation_nodes);

}  // namespace fabricgate::cluster
