#pragma once
// `fabricgate run`: lock the runner, fingerprint it, launch the bench once per scenario (a fresh
// process each: NCCL reads its environment once), and leave a complete run directory behind for
// every scenario — also when the bench crashed (the records so far, marked incomplete).
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/json_file.hpp"
#include "core/suite.hpp"

namespace fabricgate::launch {

// Defaults of the options `run`, `ab` and `calibrate` share, stated once: RunOptions and each
// command's flags start from these.
inline constexpr int kDefaultRunTimeoutSeconds = 3600;  // whole launch of one scenario
inline constexpr int kDefaultLockTimeoutSeconds = 600;
inline constexpr const char* kDefaultLockFile = "/tmp/fabricgate-runner.lock";

struct RunOptions {
  std::string suite;  // name (suites/<name>.json) or path
  std::vector<std::filesystem::path> suite_dirs;
  std::vector<std::string> scenarios;  // empty: the suite's own list
  std::filesystem::path results_dir = "results";
  std::optional<std::string> platform;  // overrides the fingerprint's key
  int ranks = 0;                        // 0: the suite's choice
  std::string launcher = "auto";
  std::string hostfile;
  std::filesystem::path bench;  // fabricgate-bench
  std::chrono::seconds timeout{kDefaultRunTimeoutSeconds};
  std::filesystem::path lock_file;
  std::chrono::seconds lock_timeout{kDefaultLockTimeoutSeconds};
  bool progress = false;
  // For callers that make many launches one measurement (`fabricgate ab`,
  // harness/launch/ab_runner):
  std::map<std::string, std::string>
      extra_env;  // every rank: after the suite's env, before the scenario's
  // Unset for every rank (`fabricgate ab` unset=NAME: the baseline's side of a setting the
  // baseline did not have); the suite's own value of NAME is dropped too, the scenario's kept.
  std::set<std::string> extra_env_unset;
  std::filesystem::path run_dir;    // non-empty: exactly this directory (one scenario)
  std::string run_id;               // with run_dir
  std::optional<json> fingerprint;  // collected once by the caller
  bool caller_holds_lock = false;   // the caller holds the runner lock across launches
  bool announce = true;  // false: no "<platform> suite ..." line nor suite advice (the caller
                         // prints one line per launch of its own)
  std::vector<std::string>
      extra_bench_args;  // appended to the bench's arguments (a confirmation's filter)
  // Put before the bench on its command line (`fabricgate ab` wrap=CMD: mpirun ... taskset -c 0
  // fabricgate-bench ...); already validated and resolved by the caller.
  std::vector<std::string> bench_wrapper;
  // --allow-suite-launcher-env: the suite may set loader, PATH, plugin and launcher-agent
  // variables (harness/launch/suite_env_policy.hpp); refused otherwise.
  bool allow_suite_launcher_env = false;
};

struct ScenarioRun {
  std::string scenario;
  std::filesystem::path dir;  // holds run.json
  bool complete = false;
  bool bench_refused = false;  // the bench exited 2 (bad suite, P01): an input error, not a run
  std::string bench_message;
};

// The suite, --ranks, --results-dir and the scenario names, checked as run_suite checks them: a
// caller that takes the runner lock itself calls this first, so bad input never waits for the lock.
Suite validate_run_options(const RunOptions& options);

std::vector<ScenarioRun> run_suite(const RunOptions& options);

// The bench next to this executable (build tree or install), else in PATH; empty when not found.
std::filesystem::path default_bench_path();

}  // namespace fabricgate::launch
