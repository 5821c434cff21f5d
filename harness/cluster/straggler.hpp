#pragma once
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

}  // namespace fabricgate::cluster
