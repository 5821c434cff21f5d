#pragma once
// Is this baseline about the same machine? identity (GPU model/count/topology, CPU model when
// there is no GPU) must match unless forced; versions (NCCL, driver, CUDA, MPI) may differ — the
// upgrade case — and are reported prominently. P02: one-GPU-per-process and multi-GPU-per-process
// runs are never compared.
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/model/baseline.hpp"
#include "harness/model/run_record.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::gate {

// Field-by-field differences of two identity objects (cpu_model ignored when both have GPUs).
std::vector<verdict::Change> identity_differences(const nlohmann::json& before,
                                                  const nlohmann::json& after);

// The run's component versions: the fingerprint's, with NCCL from the capture when absent there.
std::map<std::string, std::string> run_versions(const RunRecord& run);

std::vector<verdict::VersionChange> version_differences(
    const std::map<std::string, std::string>& before,
    const std::map<std::string, std::string>& after);

// What the change question calls "the software" (harness/gate/runner_split.hpp): the component
// versions (NCCL, driver, CUDA, MPI) and, of the fingerprint's fields, the fabric settings
// (env/NCCL_*, env/FI_*, env/UCX_*, env/OMPI_*) and nccl.conf lines, as "what before -> after".
// Not the rest of the fingerprint: a GPU UUID, a library path or LD_LIBRARY_PATH differ on every
// new runner and say nothing about what a change could have done.
std::vector<std::string> software_changes(const std::vector<verdict::VersionChange>& versions,
                                          const std::vector<verdict::Change>& fingerprint);

// software_changes of `run` against `baseline` (its versions and fingerprint detail), as compare
// reports them in Comparison::software_changes.
std::vector<std::string> software_changes_since(const Baseline& baseline, const RunRecord& run);

// Throws InputError (exit 2) when the run and baseline mix one- and multi-GPU-per-process (P02).
void require_same_gpus_per_process(const RunRecord& run, const Baseline& baseline);

}  // namespace fabricgate::gate
