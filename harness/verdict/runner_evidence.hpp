#pragma once
// What the runner was doing behind a verdict (harness/gate/runner_evidence.hpp fills it from the
// launches' run.json "runner_counters", docs/COUNTERS.md): foreign GPU processes, whether they
// made the run "runner busy, not judged", throttling, and what could not be read.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fabricgate::verdict {

// A compute process on one of a launch's GPUs that was not one of the launch's ranks.
struct ForeignGpuProcess {
  unsigned pid = 0;
  std::string name;  // /proc/PID/comm ("" when unreadable)
  unsigned gpu_index = 0;
  std::string gpu_uuid;
  std::uint64_t used_memory_bytes = 0;
  std::optional<double> sm_percent;  // its share of the SMs over the launch, where NVML says
  std::string launch;                // the launch's run id (first launch or a confirmation)
  std::string seen;                  // "start", "during", "end", joined by '+'
};

struct RunnerEvidence {
  bool recorded = false;  // at least one judged launch recorded runner counters
  std::vector<ForeignGpuProcess> foreign_processes;
  bool foreign_load = false;  // a judged launch had a foreign GPU process
  bool busy_gpu = false;      // ... and it made the run "runner busy, not judged" (exit 3)
  // Per launch and GPU: "<run id>: GPU 0 (GPU-…): HW thermal slowdown; power-capped 2.1 s …".
  std::vector<std::string> throttling;
  // Launches whose GPU processes could not be checked, and sources not read at all, with why:
  // "<run id>: counters not read: NVML not found: libnvidia-ml.so.1: cannot open ...".
  std::vector<std::string> unread;
  double snapshot_ms_max = 0;  // the costliest launch's snapshot time

  // "pid 4242 (python3) on GPU 0, 3.1 GiB, 97 % of the SMs" for the first foreign process
  // (and "+N more"); "" when none.
  std::string summary() const;
  // One line each for reports: the foreign processes, the throttling, what was not read.
  std::vector<std::string> lines() const;
};

}  // namespace fabricgate::verdict
