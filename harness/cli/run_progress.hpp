#pragma once
// `fabricgate run`'s progress on a terminal: one line, rewritten in place, "[k/N] key status",
// read from the records.jsonl the bench appends to as each benchmark finishes. Not from the
// bench's stderr: mpirun's output forwarding turns carriage returns into separate lines, so a
// suite of a hundred benchmarks would print a hundred lines above the verdict.
#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

namespace fabricgate::cli {

class RunProgress {
 public:
  // Watches run directories under `results_dir` (<platform>/<run_id>/records.jsonl) written after
  // now, when `enabled` (stderr is a terminal); otherwise does nothing.
  RunProgress(std::filesystem::path results_dir, bool enabled);
  ~RunProgress();  // stops watching and clears the line
  RunProgress(const RunProgress&) = delete;
  RunProgress& operator=(const RunProgress&) = delete;

  // The line for a records file's text: "[3/107] coll/mpi/... ok", or "" before any benchmark.
  // Control characters from the file are shown as '?'.
  static std::string line_for(const std::string& records_text);

 private:
  void watch();
  std::filesystem::path newest_records() const;

  std::filesystem::path results_dir_;
  std::filesystem::file_time_type started_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace fabricgate::cli
