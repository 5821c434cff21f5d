#pragma once
// What changed between two runs' compact fingerprint facts (store/stored_run.hpp: versions,
// identity, shared node facts, env): driver, CUDA, NCCL and its path, MPI, NCCL_*/FI_*/UCX_*
// settings, GPU set, NVLink, NICs, kernel — whatever the facts hold, flattened to "versions/nccl",
// "env/NCCL_IB_HCA", "nodes/driver", ... so that a step next to "versions/nccl: 2.28.3 -> 2.28.9"
// explains itself.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace fabricgate::report {

struct FactChange {
  std::string what;    // flattened path, e.g. "versions/nccl"
  std::string before;  // "" when absent on that side
  std::string after;
};

// Sorted by path; empty when either side has no facts (nothing to compare, not "no change").
std::vector<FactChange> fingerprint_diff(const nlohmann::json& before, const nlohmann::json& after);

// "versions/nccl 2.28.3 -> 2.28.9; env/NCCL_PROTO (unset) -> LL128"; "" for no change.
std::string render_fact_changes(const std::vector<FactChange>& changes);

}  // namespace fabricgate::report
