// fabricgate history KEY: the median of one key over the last runs of a platform, with the change
// from run to run and a trend (least-squares slope per run, first -> last), so that a drift too
// slow for the gate's per-run tolerance shows. Reads results/<platform>/*/run.json (history.hpp
// says why a scan and not an index file); corrupt or foreign files are warnings on stderr.
// Exit: 0 printed, 2 bad input (unknown key, no such platform, several platforms and no --platform).
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "harness/cli/commands.hpp"
#include "harness/model/errors.hpp"
#include "harness/report/history.hpp"
#include "harness/report/text_escape.hpp"

namespace fabricgate::cli {

namespace {

namespace fs = std::filesystem;

struct HistoryArgs {
  std::string key;
  std::string results = "results";
  std::string platform;
  std::size_t last = 20;
  std::string metric = "auto";
};

// The platform directory: --platform under --results, or the only platform there, or --results
// itself when it is already a platform directory.
fs::path platform_dir(const HistoryArgs& a) {
  std::error_code ec;
  if (!fs::is_directory(a.results, ec)) throw InputError(a.results, "", "no such results directory (--results)");
  if (!a.platform.empty()) {
    const fs::path dir = fs::path(a.results) / a.platform;
    if (!fs::is_directory(dir, ec)) throw InputError(dir.string(), "", "no such platform directory (--platform)");
    return dir;
  }
  if (report::holds_runs(a.results)) return a.results;
  const std::vector<std::string> platforms = report::platforms_under(a.results);
  if (platforms.size() == 1) return fs::path(a.results) / platforms.front();
  std::string names;
  for (const std::string& p : platforms) names += (names.empty() ? "" : ", ") + p;
  throw InputError(a.results, "", platforms.empty()
                                      ? "expected <platform>/<run-id>/run.json files, found none"
                                      : "holds runs of several platforms (" + names + "); choose one with --platform");
}

// Keys of the newest run that share the longest prefix with the one asked for (typo help).
std::string similar_keys(const fs::path& dir, const std::string& key) {
  report::ScanOptions newest;
  newest.last = 1;
  const report::RunScan scan = report::scan_runs(dir, newest);
  if (scan.runs.empty()) return "";
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const auto& [k, medians] : scan.runs.back().keys) {
    const auto [mine, theirs] = std::mismatch(key.begin(), key.end(), k.begin(), k.end());
    scored.emplace_back(static_cast<std::size_t>(mine - key.begin()), k);
  }
  std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::string out = "; keys of run " + scan.runs.back().run_id + " include:";
  for (std::size_t i = 0; i < scored.size() && i < 5; ++i) out += "\n  " + scored[i].second;
  return out;
}

int run_history(const HistoryArgs& a) {
  const report::HistoryMetric metric = report::parse_history_metric(a.metric);
  const fs::path dir = platform_dir(a);
  report::ScanOptions options;
  options.platform = a.platform.empty() ? dir.filename().string() : a.platform;
  options.last = a.last;
  options.key = a.key;
  const report::RunScan scan = report::scan_runs(dir, options);
  for (const std::string& w : scan.warnings) std::cerr << "fabricgate: warning: " << report::printable(w) << "\n";
  const report::KeyHistory history = report::key_history(scan.runs, a.key, metric, a.last);
  if (history.points.empty()) {
    throw InputError(dir.string(), "", "no run measured key " + a.key + " (" + std::to_string(scan.parsed) +
                                           " run.json files read)" + similar_keys(dir, a.key));
  }
  std::cout << report::without_workflow_commands(report::render_history_text(history));
  return 0;
}

}  // namespace

void add_history_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<HistoryArgs>();
  auto* cmd = app.add_subcommand(
      "history",
      "Print the median of one key over the last runs of a platform (date, run id, suite/scenario, median, "
      "change vs previous) and its trend (slope per run, first -> last), so a slow drift is visible");
  cmd->add_option("key", args->key, "Benchmark key, e.g. coll/nccl/all_reduce/float32/sum/bytes:1048576/ranks:2/oop")
      ->required();
  cmd->add_option("--results", args->results, "Results root (<DIR>/<platform>/<run-id>/run.json) or one platform's directory")
      ->capture_default_str();
  cmd->add_option("--platform", args->platform, "Platform key (needed when DIR holds several)");
  cmd->add_option("--last", args->last, "Runs shown, newest last")->check(CLI::Range(1, 100000))->capture_default_str();
  cmd->add_option("--metric", args->metric,
                  "auto (the gate's metric for the size: time below 1 MiB (P15), else busbw/algbw), busbw, algbw, time")
      ->check(CLI::IsMember({"auto", "busbw", "algbw", "time"}))
      ->capture_default_str();
  cmd->callback([args, &exit_code] { exit_code = run_history(*args); });
}

}  // namespace fabricgate::cli
