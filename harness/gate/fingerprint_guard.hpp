#pragma once
// Is this baseline about the same machine? identity (GPU model/count/topology, CPU model when
// there is no GPU) must match unless forced; versions (NCCL, driver, CUDA, MPI) may differ — the
// upgrade case — and are reported prominently. P02: one-GPU-per-process and multi-GPU-per-process
// runs are never compared.
#include <filesystem>
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

// A baseline belongs to one platform key (baselines/<platform>.json). Gating a run of another
// platform, merging its runs into the baseline, or writing it into a file named for another
// platform mixes two machines' numbers, so all three are refused (exit 2) unless the user says
// --force-platform.

// Throws InputError naming the run, its platform and the baseline's, unless `forced`.
void require_run_platform(const RunRecord& run, const Baseline& baseline, bool forced);

// Every run must have the baseline's platform (baseline update).
void require_runs_platform(const std::vector<RunRecord>& runs, const Baseline& baseline,
                           bool forced);

// Writing a baseline of `platform` to `out` is refused unless `forced` when `out` is the baseline
// of another platform: the file it replaces says so (`replaced`, may be null), or it lies in a
// directory called "baselines" under another platform's name (<other>.json,
// <other>--<scenario>.json). Other names (reviewer copies such as /tmp/candidate.json) say nothing
// about a platform.
void require_file_named_for(const std::filesystem::path& out, const std::string& platform,
                            const Baseline* replaced, bool forced);

}  // namespace fabricgate::gate
