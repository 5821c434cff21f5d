#include "harness/launch/hang_forensics.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>

#include <fmt/format.h>

#include "core/json_file.hpp"
#include "harness/launch/process.hpp"

namespace fabricgate::launch {

namespace {

// A beacon writes every 0.5 s: a heartbeat this old means the process is not running.
constexpr double kStaleSeconds = 5.0;

nlohmann::json read_progress(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) return nullptr;
  const nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
  const bool usable = doc.is_object() && doc.value("schema", "") == "fabricgate.rank-progress/1" &&
                      doc.contains("steps") && doc["steps"].is_number_integer() &&
                      doc.contains("time") && doc["time"].is_number();
  return usable ? doc : nlohmann::json(nullptr);
}

nlohmann::json ras_capture() {
  const std::string ras = find_in_path("ncclras");
  if (ras.empty()) {
    return {
        {"captured", false},
        {"reason", "ncclras not found in PATH (NCCL 2.28.7 or later provides `ncclras -f json`)"}};
  }
  const auto out = capture_output({ras, "-f", "json"}, 1 << 20, std::chrono::seconds(15));
  if (!out) return {{"captured", false}, {"reason", ras + " -f json failed or timed out"}};
  const nlohmann::json doc = nlohmann::json::parse(*out, nullptr, false);
  if (doc.is_discarded()) {
    return {{"captured", false},
            {"reason", ras + " -f json printed no JSON (NCCL older than 2.28.7?)"},
            {"output", out->substr(0, 4000)}};
  }
  return {{"captured", true}, {"ras", doc}};
}

double unix_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

HangReport judge_hang(const std::vector<nlohmann::json>& progress, double now, double stale_seconds,
                      const std::string& why) {
  long long furthest = 0;
  for (const nlohmann::json& p : progress) {
    if (!p.is_null() && now - p["time"].get<double>() <= stale_seconds)
      furthest = std::max(furthest, p["steps"].get<long long>());
  }
  HangReport report;
  nlohmann::json ranks = nlohmann::json::array();
  nlohmann::json missing = nlohmann::json::array();
  std::size_t in_teardown = 0;
  for (std::size_t r = 0; r < progress.size(); ++r) {
    const nlohmann::json& p = progress[r];
    nlohmann::json entry = {{"rank", r}};
    std::string state;
    const bool finished = !p.is_null() && p.value("finished", false);
    if (p.is_null()) {
      state = "no progress file";
    } else {
      const double age = now - p["time"].get<double>();
      for (const char* field : {"host", "pid", "key", "sample", "steps", "finished"}) {
        if (p.contains(field)) entry[field] = p[field];
      }
      entry["heartbeat_age_s"] = age;
      if (age > stale_seconds) {
        state = "not responding";
      } else if (finished) {
        state = "finished";  // alive, every benchmark done: in MPI_Finalize or the NCCL teardown
        ++in_teardown;
      } else if (p["steps"].get<long long>() < furthest) {
        state = "behind";
      } else {
        state = "waiting";
      }
    }
    entry["state"] = state;
    if (state != "waiting" && state != "finished") {
      missing.push_back(r);
      const std::string last =
          p.is_null() || p.value("key", "").empty()
              ? "no benchmark completed"
              : fmt::format("last completed {} sample {}{}", p.value("key", ""),
                            p.value("sample", -1), finished ? ", then its teardown began" : "");
      report.console.push_back(
          fmt::format("hang: rank {} on host {} did not reach the collective: {}{} ({})", r,
                      p.is_null() ? std::string("?") : p.value("host", "?"), state,
                      p.is_null() || state != "not responding"
                          ? std::string()
                          : fmt::format(" for {:.0f} s", entry["heartbeat_age_s"].get<double>()),
                      last));
    }
    ranks.push_back(std::move(entry));
  }
  if (missing.empty() && !progress.empty()) {
    report.console.push_back(
        in_teardown == progress.size()
            ? "hang: every rank finished its benchmarks and is alive; the job hung in its teardown "
              "(MPI_Finalize, the NCCL communicators' destruction or the launcher's exit)"
            : "hang: every rank is alive at the same step; the collective itself did not complete");
  }
  report.doc = {{"schema", "fabricgate.hang/1"},
                {"reason", why},
                {"written_at", now},
                {"stale_seconds", stale_seconds},
                {"furthest_steps", furthest},
                {"did_not_reach", missing},
                {"ranks", ranks}};
  return report;
}

ProgressSnapshot read_progress_snapshot(const std::filesystem::path& run_dir, int nranks) {
  ProgressSnapshot snapshot;
  for (int r = 0; r < nranks; ++r) {
    snapshot.progress.push_back(
        read_progress(run_dir / "ranks" / (std::to_string(r) + ".progress.json")));
  }
  snapshot.taken_at = unix_now();
  return snapshot;
}

HangReport write_hang_report(const std::filesystem::path& run_dir, const ProgressSnapshot& snapshot,
                             const std::string& why) {
  HangReport report = judge_hang(snapshot.progress, snapshot.taken_at, kStaleSeconds, why);
  report.doc["ncclras"] = ras_capture();
  write_json_atomically(run_dir / "hang.json", report.doc);
  return report;
}

}  // namespace fabricgate::launch
