#pragma once
// Hang forensics (docs/STRAGGLERS.md): after the bench did not finish (the harness's --timeout
// fired, or the bench ended with a hang of its own), the run directory says which ranks did not
// reach the collective. Every rank's beacon thread keeps ranks/<rank>.progress.json fresh (host,
// pid, last completed key and sample, steps completed, time) without the communicator, so:
//   not responding: its heartbeat is older than `stale_seconds` (stopped, dead, or stuck
//                   somewhere that stops the whole process);
//   behind:         responding, but fewer steps completed than the furthest rank;
//   no file:        never wrote one (never started).
// hang.json gets one entry per rank and, where NCCL provides it (2.28.7 or later), the output of
// `ncclras -f json`; otherwise the reason it was skipped.
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace fabricgate::launch {

struct HangReport {
  nlohmann::json doc;                // what hang.json holds
  std::vector<std::string> console;  // lines naming the missing ranks and hosts
};

// Pure: the report from the progress documents found (by rank; null where none) at `now` (Unix
// seconds).
HangReport judge_hang(const std::vector<nlohmann::json>& progress, double now, double stale_seconds,
                      const std::string& why);

// Reads <run_dir>/ranks, captures ncclras, writes <run_dir>/hang.json; returns the report.
HangReport write_hang_report(const std::filesystem::path& run_dir, int nranks,
                             const std::string& why);

}  // namespace fabricgate::launch
