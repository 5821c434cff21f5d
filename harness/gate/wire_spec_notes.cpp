#include "harness/gate/wire_spec_notes.hpp"

#include <unordered_map>

#include <fmt/format.h>

namespace fabricgate::gate {

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
