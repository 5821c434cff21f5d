#pragma once
// The counter window of one launch as `fabricgate run` uses it (harness/counters): whether it is
// on, what it is told about the launch, and the run.json section it leaves.
// FABRICGATE_COUNTERS=0 turns it off (to measure its cost by difference; run.json then has no
// "runner_counters" section, as a run written before it).
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "core/json_file.hpp"
#include "harness/counters/launch_counters.hpp"

namespace fabricgate::launch {

bool counters_enabled();

// The launch's GPUs (CUDA_VISIBLE_DEVICES of the launcher's environment, else the suite's, else
// ours), the host name from the fingerprint, and for srun (whose tasks are slurmstepd's children,
// not ours) the bench executable: a process running it is a rank. Other launchers' ranks are our
// descendants, so there another fabricgate-bench on the GPU is foreign load like any process.
counters::LaunchCounterOptions counter_options(const json& fingerprint, const std::string& launcher,
                                               const std::filesystem::path& bench,
                                               const std::map<std::string, std::string>& launch_env,
                                               const std::map<std::string, std::string>& suite_env);

// Finishes the window (null JSON when there is none) and, when `announce`, says on stderr which
// foreign GPU processes it saw.
json record_counters(std::optional<counters::LaunchCounterWindow>& window, bool announce);

}  // namespace fabricgate::launch
