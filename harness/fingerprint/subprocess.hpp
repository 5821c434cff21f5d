#pragma once
// Runs a helper program (fi_info) from an argument vector: posix_spawnp, never a shell, so no
// quoting or injection questions. Output is read with a byte cap and a deadline: a hung or
// chatty helper cannot stall or exhaust the fingerprint.
#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace fabricgate::fingerprint {

struct ProgramResult {
  bool started = false;
  std::string start_error;  // "fi_info: No such file or directory" when it could not start
  int exit_code = -1;       // valid when it exited normally
  int signal = 0;           // set when it was killed by a signal
  bool timed_out = false;   // we killed it at the deadline
  bool truncated = false;   // output passed max_output_bytes (the rest was drained, not kept)
  std::string out;
  std::string err;

  bool succeeded() const { return started && !timed_out && signal == 0 && exit_code == 0; }
  // One line for a "reason" field: what went wrong, with stderr's first line.
  std::string failure_text(const std::string& program) const;
};

// argv[0] is looked up on PATH. The child inherits the environment (FI_* settings matter).
ProgramResult run_program(const std::vector<std::string>& argv, std::size_t max_output_bytes,
                          std::chrono::milliseconds timeout);

}  // namespace fabricgate::fingerprint
