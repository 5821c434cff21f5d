#pragma once
// What a multi-node run's numbers mean (P11, P12), added to a comparison as notes and warnings.
#include "harness/model/run_record.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::gate {

// Per-accelerator inter-node rate implied by a collective's busbw on k nodes with n ranks:
// busbw · (k−1)/(n−1) (P12). A floor, and meaningful only for hierarchical algorithms.
double inter_node_rate_GBps(double busbw_GBps, int nodes, int nranks);

// k = 2: a run-level warning (P11). k > 1: a P12 note on every collective key with busbw.
void add_multinode_notes(const RunRecord& run, verdict::Comparison& c);

}  // namespace fabricgate::gate
