#include "harness/launch/launch_counters_record.hpp"

#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "harness/model/counters/counters_json.hpp"

namespace fabricgate::launch {

bool counters_enabled() {
  const char* v = std::getenv("FABRICGATE_COUNTERS");
  if (v == nullptr) return true;
  const std::string_view s(v);
  return !(s == "0" || s == "off" || s == "no" || s == "false");
}

counters::LaunchCounterOptions counter_options(
    const json& fingerprint, const std::string& launcher, const std::filesystem::path& bench,
    const std::map<std::string, std::string>& launch_env,
    const std::map<std::string, std::string>& suite_env) {
  counters::LaunchCounterOptions o;
  o.host_name = fingerprint.value("/host/hostname"_json_pointer, std::string());
  if (launcher == "srun") o.bench = bench;
  if (const auto it = launch_env.find("CUDA_VISIBLE_DEVICES"); it != launch_env.end()) {
    o.visible_devices = it->second;
  } else if (const auto s = suite_env.find("CUDA_VISIBLE_DEVICES"); s != suite_env.end()) {
    o.visible_devices = s->second;
  } else if (const char* env = std::getenv("CUDA_VISIBLE_DEVICES")) {
    o.visible_devices = env;
  }
  return o;
}

json record_counters(std::optional<counters::LaunchCounterWindow>& window, bool announce) {
  if (!window) return nullptr;
  const counters::RunnerCounters c = window->finish();
  if (announce) {
    for (const counters::ForeignProcess& f : c.foreign_processes) {
      std::fprintf(stderr,
                   "fabricgate: warning: GPU %u had a compute process that is not this launch's: "
                   "pid %u (%s), %.1f MiB, seen at %s\n",
                   f.gpu_index, f.pid, f.name.empty() ? "?" : f.name.c_str(),
                   static_cast<double>(f.used_memory_bytes) / (1024.0 * 1024.0), f.seen.c_str());
    }
  }
  return counters::to_json(c);
}

}  // namespace fabricgate::launch
