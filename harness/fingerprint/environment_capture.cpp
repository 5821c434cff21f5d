#include "harness/fingerprint/environment_capture.hpp"

#include <algorithm>
#include <array>
#include <map>

extern char** environ;  // POSIX: the process environment (read only here)

namespace fabricgate::fingerprint {

bool is_relevant_variable(std::string_view name) {
  // Prefixes of the libraries, launchers and schedulers whose settings change fabric results.
  static constexpr std::array<std::string_view, 19> kPrefixes = {
      "NCCL_",  "FI_",   "UCX_",     "UCC_",        "OMPI_",  "PMIX_",     "PRTE_",
      "SLURM_", "CUDA_", "MPI_",     "I_MPI_",      "HCOLL_", "MELLANOX_", "MLX5_",
      "RDMAV_", "IBV_",  "GDRCOPY_", "TORCH_NCCL_", "OMP_"};
  // NVIDIA_* as a prefix would drag in container metadata (NVIDIA_REQUIRE_CUDA is kilobytes).
  static constexpr std::array<std::string_view, 3> kExact = {"LD_LIBRARY_PATH", "LD_PRELOAD",
                                                             "NVIDIA_VISIBLE_DEVICES"};
  const auto starts = [name](std::string_view prefix) {
    return name.substr(0, prefix.size()) == prefix;
  };
  return std::any_of(kPrefixes.begin(), kPrefixes.end(), starts) ||
         std::find(kExact.begin(), kExact.end(), name) != kExact.end();
}

json capture_environment(const std::vector<std::string>& entries) {
  std::map<std::string, std::string> kept;  // sorted, and a repeated name keeps its first value
  for (const auto& entry : entries) {
    const auto equals = entry.find('=');
    if (equals == std::string::npos || equals == 0) continue;
    const std::string name = entry.substr(0, equals);
    if (!is_relevant_variable(name)) continue;
    kept.emplace(name, entry.substr(equals + 1));
  }
  json variables = json::object();
  json redacted = json::array();
  for (const auto& [name, value] : kept) {
    std::string recorded = recordable_value(name, value);
    if (is_secret_variable(name) || recorded != value) redacted.push_back(name);
    variables[name] = std::move(recorded);
  }
  return {{"variables", std::move(variables)}, {"redacted", std::move(redacted)}};
}

std::vector<std::string> process_environment() {
  std::vector<std::string> entries;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    entries.emplace_back(*entry);
  }
  return entries;
}

std::string environment_value(const std::vector<std::string>& entries, std::string_view name) {
  for (const auto& entry : entries) {
    if (entry.size() > name.size() && entry.compare(0, name.size(), name) == 0 &&
        entry[name.size()] == '=') {
      return entry.substr(name.size() + 1);
    }
  }
  return {};
}

}  // namespace fabricgate::fingerprint
