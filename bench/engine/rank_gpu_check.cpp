#include "bench/engine/rank_gpu_check.hpp"

#include <map>

namespace fabricgate::bench {

std::string p01_refusal(const RankGpuDemand& d, const nlohmann::json& ranks) {
  if (!d.has_collectives) return {};
  const int nranks = d.has_host_collectives ? d.processes : d.processes * d.gpus_per_process;
  if (nranks < 2) {
    return "P01: collective benchmarks need at least 2 ranks, found " + std::to_string(nranks) +
           " (ranks started as separate jobs never meet: busbw would be 0). Launch with mpirun -np "
           "N or srun.";
  }
  if (!d.has_gpu_collectives) return {};
  std::map<std::string, const nlohmann::json*> first_user;  // "host/uuid" -> first rank on it
  std::map<std::string, int> ranks_on_host;
  for (const auto& r : ranks) ++ranks_on_host[r.value("host", "")];
  for (const auto& r : ranks) {
    const std::string uuid = r.value("gpu_uuid", "");
    if (uuid.empty()) continue;
    const std::string host = r.value("host", "");
    const auto [it, fresh] = first_user.emplace(host + "/" + uuid, &r);
    if (fresh) continue;
    const int gpus = r.value("visible_gpus", 0);
    return "P01: ranks " + std::to_string(it->second->value("rank", -1)) + " and " +
           std::to_string(r.value("rank", -1)) + " would both use GPU " + uuid + " on host " +
           host + ", which has " + std::to_string(gpus) + " GPU" + (gpus == 1 ? "" : "s") +
           " for " + std::to_string(ranks_on_host[host]) +
           " ranks; launch at most one rank per GPU (--ranks " + std::to_string(gpus) +
           ", or check CUDA_VISIBLE_DEVICES)";
  }
  return {};
}

}  // namespace fabricgate::bench
