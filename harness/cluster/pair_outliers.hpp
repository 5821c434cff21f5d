#pragma once
// Bad-node localisation from one run's node-pair results (family "nodepairs", op "sendrecv",
// params.nodes = [a, b]). Per (backend, size), over the pairs that measured:
//   SLOW-PAIR (warning): a pair below `slow_pair_fraction` × the median of all pairs.
//   SUSPECT-NODE (fails the gate): the median of a node's own pairs is below
//     `suspect_fraction` × the median of the pairs it is not in (leave-one-out, so one bad node
//     cannot drag the reference down with it), in more than half of the sizes it was judged at.
// A node needs 2 pairs of its own and 2 pairs without it to be judged (k >= 4 nodes); at k = 3
// a bad node is in 2 of the 3 pairs and cannot be told apart. Pure.
#include <vector>

#include "harness/model/run_record.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::cluster {

struct PairOutlierPolicy {
  double slow_pair_fraction = 0.5;  // "far below": under half the median
  double suspect_fraction = 0.75;   // a node whose pairs run 25 % below the others'
  std::size_t min_pairs = 3;        // pairs per size before any median means something
};

std::vector<verdict::ClusterFinding> find_pair_outliers(const std::vector<BenchmarkResult>& results,
                                                        const PairOutlierPolicy& policy = {});

}  // namespace fabricgate::cluster
