#pragma once
// `fabricgate run`'s progress on a terminal: one line, rewritten in place, "[k/N] key status",
// read from the records.jsonl the bench appends to as each benchmark finishes. Not from the
// bench's stderr: mpirun's output forwarding turns carriage returns into separate lines, so a
// suite of a hundred benchmarks would print a hundred lines above the verdict.
// Without a terminal (a CI log, a nightly's file) a line cannot be rewritten, so a heartbeat
// is printed instead: one line every few seconds with the progress, the time elapsed and the
// last key done, so that a long run is visibly alive and a hang visibly is not.
#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

namespace fabricgate::cli {

enum class ProgressMode { off, terminal, heartbeat };

class RunProgress {
 public:
  // Watches run directories under `results_dir` (<platform>/<run_id>/records.jsonl) written after
  // now: `terminal` rewrites one line, `heartbeat` prints a line every `heartbeat` interval.
  RunProgress(std::filesystem::path results_dir, ProgressMode mode,
              std::chrono::seconds heartbeat = std::chrono::seconds(10));
  ~RunProgress();  // stops watching and clears the line
  RunProgress(const RunProgress&) = delete;
  RunProgress& operator=(const RunProgress&) = delete;

  // The line for a records file's text: "[3/107] coll/mpi/... ok", or "" before any benchmark.
  // Control characters from the file are shown as '?'.
  static std::string line_for(const std::string& records_text);

  // The heartbeat: "[3/107] 1m05s elapsed, last done coll/mpi/... ok" ("0m10s elapsed, waiting
  // for the first benchmark" before any).
  static std::string heartbeat_for(const std::string& records_text, std::chrono::seconds elapsed);

 private:
  void watch();
  void beat();
  std::filesystem::path newest_records() const;

  std::filesystem::path results_dir_;
  std::filesystem::file_time_type started_;
  std::chrono::steady_clock::time_point started_steady_;
  std::chrono::seconds heartbeat_;
  ProgressMode mode_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace fabricgate::cli
