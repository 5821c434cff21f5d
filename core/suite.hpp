#pragma once
// Suite files (schema fabricgate.suite/1): which fixtures, sizes, repetitions, how many ranks,
// which control scenarios and environment. Loaded and validated here for both the harness (which
// launches) and the bench (which registers benchmarks from the "benchmarks" entries).
//
// {
//   "schema": "fabricgate.suite/1", "name": "quick", "description": "...",
//   "ranks": "per-gpu" | 2,                    // processes to launch (per-gpu: one per GPU)
//   "min_ranks": 2,                            // refuse to launch with fewer (default 1)
//   "scenarios": ["default", "nvlink-off"],    // each runs in a fresh launch (NCCL caches its env)
//   "env": {"NCCL_NVLS_ENABLE": "0"},          // set for every rank of every scenario
//   "defaults": {"repetitions": 5, "warmup": 5, "target_sample_ms": 20},
//   "benchmarks": [
//     {"family": "coll", "backend": "mpi", "sizes": {"min": 8, "max": "1M", "factor": 4}}, ...]
// }
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/json_file.hpp"

namespace fabricgate {

struct Suite {
  std::filesystem::path file;
  std::string name;
  std::string description;
  int ranks = 0;  // 0 = one per GPU
  int min_ranks = 1;
  std::vector<std::string> scenarios{"default"};
  std::map<std::string, std::string> env;
  json doc;  // the whole document (the bench reads "defaults" and "benchmarks" from it)
};

Suite load_suite(const std::filesystem::path& file);

// Whether a "benchmarks" entry runs on NCCL: coll or nodepairs with backend "nccl" (node pairs
// default to MPI). One rule for the bench (which communicators to make) and the harness (advice).
bool entry_uses_nccl(const json& entry);
// Finds a suite by name in `dirs` (name.json), or takes a path as is. InputError when absent.
std::filesystem::path resolve_suite(const std::string& name_or_path,
                                    const std::vector<std::filesystem::path>& dirs);

// Environment variable names: [A-Z_][A-Z0-9_]*. Values: no shell syntax ($ ` ; | & < > newline),
// because a value that looks like shell is a mistake or an attack even though we never use a shell.
bool is_safe_env_name(const std::string& name);
bool is_safe_env_value(const std::string& value);

}  // namespace fabricgate
