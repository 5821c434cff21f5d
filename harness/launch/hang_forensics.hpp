#pragma once
// Hang forensics (docs/STRAGGLERS.md): after the bench did not finish (the harness's --timeout
// fired, or the bench ended with a hang of its own), the run directory says which ranks did not
// reach the collective. Every rank's beacon thread keeps ranks/<rank>.progress.json fresh (host,
// pid, last completed key and sample, steps completed, time) without the communicator, so:
//   not responding: its heartbeat is older than `stale_seconds` (stopped, dead, or stuck
//                   somewhere that stops the whole process);
//   behind:         responding, but fewer steps completed than the furthest rank;
//   waiting:        responding at the furthest step (blocked in the collective the others skip);
//   finished:       responding, every benchmark done: the rank is in its teardown;
//   no file:        never wrote one (never started).
// Ranks that are neither waiting nor finished are the ones that "did not reach" the collective.
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

// The ranks' progress documents (by rank; null where none or unreadable) and when they were read.
struct ProgressSnapshot {
  std::vector<nlohmann::json> progress;
  double taken_at = 0;  // Unix seconds
};

// Reads <run_dir>/ranks/<rank>.progress.json for ranks 0..nranks-1. Taken when the timeout fires,
// before the job is signalled: the teardown can wake a stopped rank long enough to beat once.
ProgressSnapshot read_progress_snapshot(const std::filesystem::path& run_dir, int nranks);

// Judges the snapshot, captures ncclras, writes <run_dir>/hang.json; returns the report.
HangReport write_hang_report(const std::filesystem::path& run_dir, const ProgressSnapshot& snapshot,
                             const std::string& why);

}  // namespace fabricgate::launch
