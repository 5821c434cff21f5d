#pragma once
// The environment variables that change how the fabric is used (NCCL_*, FI_*, UCX_*, OMPI_*,
// SLURM_*, CUDA_VISIBLE_DEVICES, ...), recorded with each run. Fingerprints are published and
// committed, so values pass through harness/model/secret_redaction.hpp: a secret-looking NAME
// (TOKEN, KEY, SECRET, PASSWORD, PASSWD, CREDENTIAL, AWS_*) keeps its name but its value becomes
// "<redacted>", and user:password@ in a URL inside any other value is replaced.
#include <string>
#include <string_view>
#include <vector>

#include "core/json_file.hpp"
#include "harness/model/secret_redaction.hpp"

namespace fabricgate::fingerprint {

using fabricgate::is_secret_variable;
using fabricgate::kRedacted;

bool is_relevant_variable(std::string_view name);

// entries are "NAME=VALUE" strings (environ's format). Returns
// {"variables": {NAME: recorded value}, "redacted": [NAME, ...]}, names sorted; "redacted" lists
// every variable whose value was changed (wholly or its URL credentials).
json capture_environment(const std::vector<std::string>& entries);

// The current process's environ as "NAME=VALUE" strings.
std::vector<std::string> process_environment();

// Value of NAME in such a list ("" when absent).
std::string environment_value(const std::vector<std::string>& entries, std::string_view name);

}  // namespace fabricgate::fingerprint
