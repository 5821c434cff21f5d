#pragma once
// The compact per-node fingerprint a multi-node run gathers on rank 0 (run.json "nodes"): the
// facts whose difference between nodes makes a job slow or wrong (driver, CUDA, NCCL, GPU count
// and models, RDMA NICs and their link state/rate, the platform key). Computed by one rank per
// node from the same code as `fabricgate fingerprint` (no fi_info: it takes seconds per node).
// Every fact is a string, so the consistency check (harness/cluster/outliers.hpp)
// compares them without knowing what they mean.
#include <filesystem>
#include <string>

#include "core/json_file.hpp"
#include "harness/fingerprint/gpu_query.hpp"

namespace fabricgate::fingerprint {

struct NodeFactsOptions {
  std::filesystem::path root = "/";     // /proc, /sys, /etc (tests: a fake tree)
  const GpuQuery* gpu_query = nullptr;  // nullptr: NVML
  bool probe_libraries = true;          // dlopen NCCL and the CUDA runtime for their versions
};

// {"hostname": "...", "platform_key": "...", "facts": {"driver": "...", "cuda_driver": "...",
//  "cuda_runtime": "...", "nccl": "...", "gpu_count": "8", "gpu_models": "NVIDIA H200",
//  "nics": "mlx5_0,mlx5_1", "nic_links": "mlx5_0/1 ACTIVE 400Gb/s InfiniBand; ...",
//  "platform_key": "..."}}
json collect_node_facts(const NodeFactsOptions& options);

// FABRICGATE_TEST_NODE_FACT_OVERRIDE: "<node index>:<fact>=<value>[,<node
// index>:<fact>=<value>...]". Replaces facts of node `node_index` (a test injects a differing
// driver on one emulated node) and records what was replaced in "test_override", so a report never
// passes an injected fact off as measured. Throws InputError for a malformed spec. Returns true
// when something was replaced.
bool apply_fact_overrides(json& node, int node_index, const std::string& spec);

}  // namespace fabricgate::fingerprint
