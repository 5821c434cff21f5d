#include "harness/gate/multinode_notes.hpp"

#include <fmt/format.h>

namespace fabricgate::gate {

double inter_node_rate_GBps(double busbw_GBps, int nodes, int nranks) {
  if (nodes < 2 || nranks < 2) return 0;
  return busbw_GBps * (nodes - 1) / (nranks - 1);
}

void add_multinode_notes(const RunRecord& run, verdict::Comparison& c) {
  const int k = run.launch.nodes;
  if (k < 2) return;
  if (k == 2) {
    c.warnings.push_back(
        "P11: this run spans 2 nodes; NCCL special-cases two-node jobs (e.g. NVLSTree came out "
        "faster "
        "than one node), so do not characterise a fabric on two nodes");
  }
  for (verdict::KeyComparison& key : c.keys) {
    if (key.family != "coll" || !key.busbw_now || key.nranks < 2) continue;
    const double rate = inter_node_rate_GBps(*key.busbw_now, k, key.nranks);
    key.notes.push_back(
        {"P12", "note",
         fmt::format("busbw {:.1f} GB/s over {} nodes, {} ranks in all, implies >= {:.1f} GB/s per "
                     "accelerator between nodes (busbw x (k-1)/(n-1); a floor, valid for "
                     "hierarchical algorithms; compare with the per-accelerator NIC spec, not with "
                     "busbw)",
                     *key.busbw_now, k, key.nranks, rate)});
  }
}

}  // namespace fabricgate::gate
