#include "harness/gate/wire_notes.hpp"

#include <unordered_map>

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

namespace {

std::string algorithms(const Choice& choice) {
  std::string out;
  for (const auto& [name, count] : choice.algo) out += (out.empty() ? "" : ", ") + name;
  return out;
}

}  // namespace

void add_wire_spec_notes(const RunRecord& run, verdict::Comparison& c) {
  const double spec = run.fingerprint.nvlink_GBps_per_direction;
  if (spec <= 0 || run.launch.nodes > 1)
    return;  // across nodes busbw is not an NVLink figure (P12)
  std::unordered_map<std::string, const BenchmarkResult*> results;
  for (const auto& r : run.benchmarks) results.emplace(r.key, &r);
  for (verdict::KeyComparison& k : c.keys) {
    if (k.family != "coll" || k.backend != "nccl" || !k.busbw_now) continue;
    const auto it = results.find(k.key);
    if (it == results.end() || !it->second->choice || it->second->choice->algo.empty()) continue;
    const Choice& choice = *it->second->choice;
    const bool ring_only = choice.algo.size() == 1 && choice.algo.begin()->first == "Ring";
    if (*k.busbw_now > spec) {
      k.notes.push_back({"P10", "note",
                         fmt::format("busbw {:.1f} GB/s is above the {:.0f} GB/s per-direction "
                                     "NVLink spec: with {} the ring formula behind busbw no longer "
                                     "describes the wire (P10)",
                                     *k.busbw_now, spec, algorithms(choice))});
    } else if (ring_only && k.bytes >= (std::uint64_t{1} << 26)) {
      k.notes.push_back(
          {"P10", "note",
           fmt::format("ring wire efficiency {:.1f} % of the {:.0f} GB/s per-direction NVLink spec",
                       100.0 * *k.busbw_now / spec, spec)});
    }
  }
}

}  // namespace fabricgate::gate
