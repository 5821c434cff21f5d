#pragma once
// The environment variables that change how the fabric is used (NCCL_*, FI_*, UCX_*, OMPI_*,
// SLURM_*, CUDA_VISIBLE_DEVICES, ...), recorded with each run. Fingerprints are published and
// committed, so any variable whose NAME contains TOKEN, KEY, SECRET or PASSWORD (any case) keeps
// its name but its value becomes "<redacted>".
#include <string>
#include <string_view>
#include <vector>

#include "harness/model/json_file.hpp"

namespace fabricgate::fingerprint {

inline constexpr std::string_view kRedacted = "<redacted>";

bool is_relevant_variable(std::string_view name);
bool is_secret_variable(std::string_view name);

// entries are "NAME=VALUE" strings (environ's format). Returns
// {"variables": {NAME: value-or-"<redacted>"}, "redacted": [NAME, ...]}, names sorted.
json capture_environment(const std::vector<std::string>& entries);

// The current process's environ as "NAME=VALUE" strings.
std::vector<std::string> process_environment();

// Value of NAME in such a list ("" when absent).
std::string environment_value(const std::vector<std::string>& entries, std::string_view name);

}  // namespace fabricgate::fingerprint
