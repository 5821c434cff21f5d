#include "tests/unit/gate/gate_fixtures.hpp"

#include <ctime>

#include <unistd.h>
#include <algorithm>
#include <random>
#include <system_error>
#include <vector>

#include "core/json_file.hpp"

namespace fabricgate::testing {

std::string key_for(const ResultSpec& s) {
  return s.family + "/" + s.backend + "/" + s.op + "/float32/sum/bytes:" + std::to_string(s.bytes) +
         "/ranks:" + std::to_string(s.nranks) + "/oop";
}

namespace {
double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}
}  // namespace

json make_result(const ResultSpec& s) {
  json r{{"key", key_for(s)},    {"family", s.family},
         {"backend", s.backend}, {"op", s.op},
         {"params", s.params},   {"bytes", s.bytes},
         {"nranks", s.nranks},   {"gpus_per_process", s.gpus_per_process},
         {"status", s.status},   {"message", s.message},
         {"notes", s.notes}};
  if (!s.choice.is_null()) r["choice"] = s.choice;
  if (s.status != "ok") return r;
  std::vector<double> algbw;
  std::vector<double> busbw;
  for (const double t : s.time_us) {
    algbw.push_back(static_cast<double>(s.bytes) / (t * 1e3));  // bytes / us -> GB/s
    busbw.push_back(algbw.back() * s.busbw_factor);
  }
  r["repetitions"] = s.time_us.size();
  r["iterations"] = 20;
  r["samples"] = {{"time_us", s.time_us}, {"algbw_GBps", algbw}};
  r["time_us"] = median_of(s.time_us);
  r["algbw_GBps"] = median_of(algbw);
  if (s.busbw_factor > 0) {
    r["samples"]["busbw_GBps"] = busbw;
    r["busbw_GBps"] = median_of(busbw);
    r["busbw_factor"] = s.busbw_factor;
  }
  r["warmup_us"] = s.time_us.front() * 1.5;
  r["wrong_elements"] = 0;
  return r;
}

namespace {

// 2026-11-29T19:00:00Z, then an hour later at every call.
std::string next_sitting_start() {
  static long long calls = 0;
  const std::time_t t = 1795978800 + 3600 * calls++;  // 2026-11-29T19:00:00Z
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

}  // namespace

json make_run(const RunSpec& s, const std::vector<json>& results) {
  const std::string started = s.started_at.empty() ? next_sitting_start() : s.started_at;
  return json{{"schema", "fabricgate.run/1"},
              {"run_id", s.run_id},
              {"suite", "cpu"},
              {"scenario", {{"name", "default"}, {"env", json::object()}}},
              {"platform", s.platform},
              {"complete", s.complete},
              {"incomplete_reason", s.complete ? "" : "rank 1 crashed"},
              {"started_at", started},
              {"finished_at", started.substr(0, 14) + "01:00Z"},
              {"metadata",
               {{"git_commit", s.git_commit}, {"ci_run_id", "1"}, {"fabricgate_version", "0.1.0"}}},
              {"launch",
               {{"launcher", "mpirun"},
                {"nranks", s.nranks},
                {"nodes", 1},
                {"gpus_per_process", s.gpus_per_process}}},
              {"ranks", json::array({{{"rank", 0},
                                      {"host", "h"},
                                      {"local_rank", 0},
                                      {"gpu_uuid", ""},
                                      {"pci_bus_id", ""}}})},
              {"fingerprint",
               {{"schema", "fabricgate.fingerprint/1"},
                {"platform_key", s.platform},
                {"identity", s.identity},
                {"versions", s.versions}}},
              {"capture", s.capture},
              {"benchmarks", results}};
}

RunRecord to_run(const json& doc) { return parse_run(doc, "<test run>"); }

std::vector<double> noisy(double value, double rel_noise, int n, unsigned seed, double shift) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> noise(0.0, rel_noise);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  std::vector<double> out;
  for (int i = 0; i < n; ++i) {
    double f = 1 + noise(rng);
    if (coin(rng) < 0.1) f += 3 * rel_noise;  // the occasional descheduled repetition
    out.push_back(value * (1 + shift) * std::max(0.05, f));
  }
  return out;
}

std::filesystem::path write_run_dir(const std::filesystem::path& root, const json& run) {
  const auto dir = root / run["platform"].get<std::string>() / run["run_id"].get<std::string>();
  write_json_atomically(dir / "run.json", run);
  return dir;
}

namespace {

// Every directory fresh_temp_dir made, removed when the test process ends: tests leave /tmp as
// they found them (a `.ci/run` left 18 of these behind). Only by the process that made them: a
// forked child that exits normally must not remove its parent's directories.
class TempDirs {
 public:
  void add(const std::filesystem::path& dir) { dirs_.push_back(dir); }
  ~TempDirs() {
    if (::getpid() != owner_) return;
    for (const auto& dir : dirs_) {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    }
  }

 private:
  pid_t owner_ = ::getpid();
  std::vector<std::filesystem::path> dirs_;
};

TempDirs& temp_dirs() {
  static TempDirs dirs;
  return dirs;
}

}  // namespace

std::filesystem::path fresh_temp_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("fabricgate-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  temp_dirs().add(dir);
  return dir;
}

}  // namespace fabricgate::testing
