#pragma once
// Who in a cluster stands out, from one run: a rank that held the others back (STRAGGLER), a node
// pair far below the others or a node that slows every pair it is in (SLOW-PAIR, SUSPECT-NODE), a
// node whose facts differ from the majority (NODE-MISMATCH). All pure.
//
// STRAGGLER (docs/STRAGGLERS.md): within one launch, a rank that held the others back. Per key
// with per-rank timings (BenchmarkResult::ranks), the rank slowest in the most samples is tested:
//   chance:  one-sided binomial tail P(X >= slowest | count, 1/nranks), times nranks (any rank
//            could have been the one), then Holm over all keys tested (family-wise);
//   margin:  its pace p50 >= `margin` x the median of the other ranks' pace p50s.
// Both must hold; no baseline is needed. Findings are merged per rank: one line naming rank,
// host, CPU set and GPU, the keys and the strongest evidence. A finding names a node for the
// admin's action (node_actions) only when no other rank of the launch runs on that host: a rank
// slower than its neighbours on the same machine says nothing against the machine. Pure.
#include <vector>

#include "core/benchmark_result.hpp"
#include "harness/model/run_record.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::cluster {

struct StragglerPolicy {
  double alpha = 0.01;   // family-wise over the keys tested
  double margin = 1.10;  // pace p50 over the other ranks' median
  int min_samples = 8;   // fewer samples cannot reach alpha at 2 ranks: not tested
};

// Binomial upper tail P(X >= k) for X ~ Bin(n, p).
double binomial_upper_tail(int n, int k, double p);

std::vector<verdict::ClusterFinding> find_stragglers(const std::vector<BenchmarkResult>& results,
                                                     const StragglerPolicy& policy = {});

// Bad-node localisation from one run's node-pair results (family "nodepairs", op "sendrecv",
// params.nodes = [a, b]). Per (backend, size), over the pairs that measured:
//   SLOW-PAIR (warning): a pair below `slow_pair_fraction` × the median of all pairs.
//   SUSPECT-NODE (fails the gate): the median of a node's own pairs is below
//     `suspect_fraction` × the median of the pairs it is not in (leave-one-out, so one bad node
//     cannot drag the reference down with it), in more than half of the sizes it was judged at.
// A node needs 2 pairs of its own and 2 pairs without it to be judged (k >= 4 nodes); at k = 3
// a bad node is in 2 of the 3 pairs and cannot be told apart. Pure.

struct PairOutlierPolicy {
  double slow_pair_fraction = 0.5;  // "far below": under half the median
  double suspect_fraction = 0.75;   // a node whose pairs run 25 % below the others'
  std::size_t min_pairs = 3;        // pairs per size before any median means something
};

std::vector<verdict::ClusterFinding> find_pair_outliers(const std::vector<BenchmarkResult>& results,
                                                        const PairOutlierPolicy& policy = {});

// A mixed cluster is a classic cause of slow or failing jobs: one node on another driver, NCCL or
// CUDA, with a GPU missing, a NIC absent or a port down/trained to a lower rate. Every fact of
// every node (run.json "nodes", harness/fingerprint/node_facts.hpp) is compared with the value
// most nodes have; a node that differs is named with the fact and both values. Pure.
//
// Policy (docs/MULTINODE.md): every such finding FAILS the gate. When no value has a strict
// majority (two nodes that differ, or a three-way split) no node can be blamed: one finding names
// every node per value, and it fails the gate too.

// One NODE-MISMATCH finding per (node, fact) that differs from the majority, or per fact
// without a majority. Empty for fewer than 2 nodes.
std::vector<verdict::ClusterFinding> check_cluster_consistency(
    const std::vector<NodeRecord>& nodes);

}  // namespace fabricgate::cluster
