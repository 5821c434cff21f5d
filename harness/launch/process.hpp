#pragma once
// Child processes started from an argument vector (never a shell), in their own process group so
// that a hang can be ended as a whole (mpirun and its ranks), with a wall-clock limit.
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace fabricgate::launch {

struct ProcessSpec {
  std::vector<std::string> argv;  // argv[0] is looked up in PATH when it has no '/'
  std::map<std::string, std::string>
      env_set;  // added to (or replacing in) the inherited environment
  std::optional<std::chrono::seconds> timeout;  // kill the process group after this long
  std::string stdout_file;                      // empty: inherit
  std::set<std::string> env_unset;  // removed from the inherited environment (before env_set)
  // Leftovers (issue 58): every process of the launch carries FABRICGATE_LAUNCH_TAG in its
  // environment, however it detached. When `work_process` is set (the bench's name), a launcher
  // still running `leftover_grace` after the last such process ended is being held open by
  // something the launch started (a wrap= helper's background child keeping the output pipe):
  // those are killed, and the launcher ends. After the launch, any process still carrying the tag
  // (a child that called setsid and would load every later launch) is killed too. Both are listed
  // in ProcessResult::leftovers.
  std::string work_process = {};
  std::chrono::seconds leftover_grace{10};
};

struct ProcessResult {
  int exit_code = -1;  // when exited normally
  int signal = 0;      // when killed by a signal
  bool timed_out = false;
  bool interrupted = false;  // we forwarded SIGINT/SIGTERM
  // Processes of the launch killed because they outlived its work: "PID NAME" each.
  std::vector<std::string> leftovers;
  bool held_open = false;  // the launcher waited on them after the work had ended
  std::string describe() const;
  bool ok() const { return !timed_out && signal == 0 && exit_code == 0; }
};

// Runs to completion (or timeout). SIGINT/SIGTERM received meanwhile are forwarded to the child's
// process group, so Ctrl-C stops the ranks cleanly and finished records survive.
// Throws InfraError when the program cannot be started.
// `before_timeout_kill` is called once when the timeout fires, before the group is signalled:
// evidence the teardown would change is read there (Open MPI's mpirun continues a stopped rank
// to deliver SIGTERM, and its heartbeat would look fresh afterwards).
ProcessResult run_process(const ProcessSpec& spec,
                          const std::function<void()>& before_timeout_kill = {});

// Runs and captures stdout (bounded to max_bytes); stderr is discarded. For short probes.
std::optional<std::string> capture_output(const std::vector<std::string>& argv,
                                          std::size_t max_bytes = 1 << 20,
                                          std::chrono::seconds timeout = std::chrono::seconds(20));

// Full path of `program` in PATH, or empty.
std::string find_in_path(const std::string& program);

}  // namespace fabricgate::launch
