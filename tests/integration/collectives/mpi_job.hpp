#pragma once
// Runs a real command (mpirun with real ranks) with a deadline and returns its exit code and
// combined output. No shell: arguments are passed as they are.
#include <string>
#include <vector>

namespace fabricgate::testing {

struct JobResult {
  int exit_code = -1;
  bool timed_out = false;
  std::string output;
};

JobResult run_job(const std::vector<std::string>& argv, int timeout_seconds);

// mpirun -np N --allow-run-as-root --oversubscribe <argv...>
std::vector<std::string> mpirun(int ranks, std::vector<std::string> argv);

}  // namespace fabricgate::testing
