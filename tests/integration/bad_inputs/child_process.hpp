#pragma once
// Runs a program with an argv (no shell, so corpus strings such as "$(...)" reach the CLI as
// data), in a given directory, with a time limit; stdout and stderr are captured.
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace fabricgate::testing {

struct ChildResult {
  int exit_code = -1;  // -1 when killed by a signal or by the time limit
  int signal = 0;      // the signal that ended it (SIGKILL after a timeout)
  bool timed_out = false;
  std::string output;  // stdout then stderr
};

// `unset_env` names variables removed from the child's environment (e.g. GITHUB_STEP_SUMMARY, so a
// test never appends to the CI job summary); `logs` is a directory for the captured streams.
ChildResult run_child(const std::vector<std::string>& argv, const std::filesystem::path& cwd,
                      const std::filesystem::path& logs, std::chrono::seconds limit,
                      const std::vector<std::string>& unset_env);

}  // namespace fabricgate::testing
