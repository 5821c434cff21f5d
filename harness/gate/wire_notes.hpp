#pragma once
// What a collective's busbw says about the wire, added to a comparison as notes and warnings: on
// one node against the NVLink spec (P10), between nodes per accelerator (P11, P12).
#include "harness/model/run_record.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::gate {

// Per-accelerator inter-node rate implied by a collective's busbw on k nodes with n ranks:
// busbw · (k−1)/(n−1) (P12). A floor, and meaningful only for hierarchical algorithms.
double inter_node_rate_GBps(double busbw_GBps, int nodes, int nranks);

// k = 2: a run-level warning (P11). k > 1: a P12 note on every collective key with busbw.
void add_multinode_notes(const RunRecord& run, verdict::Comparison& c);

// P10: busbw against the NVLink wire spec, for single-node NCCL collectives. Only a ring's busbw
// describes the wire; above the spec the captured algorithm (NVLS, trees, CollNet) explains it.
void add_wire_spec_notes(const RunRecord& run, verdict::Comparison& c);

}  // namespace fabricgate::gate
