#include "harness/launch/confirmation_launch.hpp"

#include <cstring>

namespace fabricgate::launch {

std::string benchmark_filter_for(const std::vector<std::string>& keys) {
  std::string alternatives;
  for (const std::string& key : keys) {
    if (!alternatives.empty()) alternatives += '|';
    for (const char c : key) {
      if (std::strchr(".[]()*+?{}|^$\\", c) != nullptr) alternatives += '\\';
      alternatives += c;
    }
  }
  return "^(" + alternatives + ")/iterations:";
}

ScenarioRun launch_confirmation(const RunOptions& base, const ScenarioRun& first,
                                const std::string& first_run_id,
                                const std::vector<std::string>& keys, std::size_t attempt) {
  RunOptions o = base;
  o.scenarios = {first.scenario};
  const std::string name = attempt <= 1 ? "confirm" : "confirm-" + std::to_string(attempt);
  o.run_dir = first.dir / name;
  o.run_id = first_run_id + "-" + name;
  o.extra_bench_args.push_back("--benchmark_filter=" + benchmark_filter_for(keys));
  const std::vector<ScenarioRun> runs = run_suite(o);
  return runs.empty() ? ScenarioRun{} : runs.front();
}

}  // namespace fabricgate::launch
