#pragma once
// A mixed cluster is a classic cause of slow or failing jobs: one node on another driver, NCCL or
// CUDA, with a GPU missing, a NIC absent or a port down/trained to a lower rate. Every fact of
// every node (run.json "nodes", harness/fingerprint/node_facts.hpp) is compared with the value
// most nodes have; a node that differs is named with the fact and both values. Pure.
//
// Policy (docs/MULTINODE.md): every such finding FAILS the gate. When no value has a strict
// majority (two nodes that differ, or a three-way split) no node can be blamed: one finding names
// every node per value, and it fails the gate too.
#include <vector>

#include "harness/model/run_record.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::cluster {

// One NODE-MISMATCH finding per (node, fact) that differs from the majority, or per fact
// without a majority. Empty for fewer than 2 nodes.
std::vector<verdict::ClusterFinding> check_cluster_consistency(
    const std::vector<NodeRecord>& nodes);

}  // namespace fabricgate::cluster
