// fabricgate history KEY | history --all: the median of a key over the newest runs of a platform,
// the change from run to run, a trend, and the change points (E-divisive means with a permutation
// test, gate/change_points.hpp): the runs where the level stepped, by how much, how surely.
// Source: the results store (--store, $FABRICGATE_STORE, else <results>/fabricgate.sqlite when it
// exists); without one, a scan of results/<platform>/*/run.json (history.hpp says why that was
// enough for one runner). Corrupt or foreign files are warnings on stderr.
// Exit: 0 printed, 2 bad input (unknown key, no such platform, several platforms and no
// --platform), 3 the store failed.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <set>

#include <CLI/CLI.hpp>

#include "core/errors.hpp"
#include "core/text_escape.hpp"
#include "harness/cli/commands.hpp"
#include "harness/report/history.hpp"
#include "harness/report/history_change_points.hpp"
#include "harness/store/store_history.hpp"

namespace fabricgate::cli {

namespace {

namespace fs = std::filesystem;

struct HistoryArgs {
  std::string key;
  std::string results = "results";
  std::string platform;
  std::size_t last = 20;
  std::string metric = "auto";
  std::string store;
  bool all = false;
  bool json = false;
};

// The platform directory: --platform under --results, or the only platform there, or --results
// itself when it is already a platform directory.
fs::path platform_dir(const HistoryArgs& a) {
  std::error_code ec;
  if (!fs::is_directory(a.results, ec))
    throw InputError(a.results, "", "no such results directory (--results)");
  if (!a.platform.empty()) {
    const fs::path dir = fs::path(a.results) / a.platform;
    if (!fs::is_directory(dir, ec))
      throw InputError(dir.string(), "", "no such platform directory (--platform)");
    return dir;
  }
  if (report::holds_runs(a.results)) return a.results;
  const std::vector<std::string> platforms = report::platforms_under(a.results);
  if (platforms.size() == 1) return fs::path(a.results) / platforms.front();
  std::string names;
  for (const std::string& p : platforms) names += (names.empty() ? "" : ", ") + p;
  throw InputError(a.results, "",
                   platforms.empty() ? "expected <platform>/<run-id>/run.json files, found none"
                                     : "holds runs of several platforms (" + names +
                                           "); choose one with --platform");
}

// Keys of the newest run that share the longest prefix with the one asked for (typo help).
std::string similar_keys(const std::vector<report::IndexedRun>& newest_first_or_last,
                         const std::string& key) {
  if (newest_first_or_last.empty()) return "";
  const report::IndexedRun& newest = newest_first_or_last.back();
  std::vector<std::pair<std::size_t, std::string>> scored;
  for (const auto& [k, medians] : newest.keys) {
    const auto [mine, theirs] = std::mismatch(key.begin(), key.end(), k.begin(), k.end());
    scored.emplace_back(static_cast<std::size_t>(mine - key.begin()), k);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::string out = "; keys of run " + newest.run_id + " include:";
  for (std::size_t i = 0; i < scored.size() && i < 5; ++i) out += "\n  " + scored[i].second;
  return out;
}

// The runs the history reads, oldest first, and where they came from.
struct HistorySource {
  std::vector<report::IndexedRun> runs;
  std::vector<report::IndexedRun> newest_for_hint;  // the newest run, for the typo help
  std::string where;
  std::string platform;
  std::size_t read = 0;
};

bool use_store(const store::StoreLocation& l) {
  if (l.kind == store::StoreKind::none) return false;
  if (l.origin != "default") return true;
  std::error_code ec;
  return fs::exists(l.target, ec);  // the default file only once a run or an import made it
}

HistorySource from_store(const HistoryArgs& a, const store::StoreLocation& l) {
  auto s = store::open_store(l, store::Access::read);
  HistorySource src;
  src.platform = store::choose_platform(*s, a.platform);
  src.where = s->display();
  store::RunQuery q;
  q.platform = src.platform;
  q.last = a.last;
  if (!a.all) q.key = a.key;
  src.runs = store::indexed_runs(*s, q);
  src.read = src.runs.size();
  if (src.runs.empty() && !a.all) {
    store::RunQuery newest;
    newest.platform = src.platform;
    newest.last = 1;
    src.newest_for_hint = store::indexed_runs(*s, newest);
  }
  return src;
}

HistorySource from_directories(const HistoryArgs& a) {
  const fs::path dir = platform_dir(a);
  report::ScanOptions options;
  options.platform = a.platform.empty() ? dir.filename().string() : a.platform;
  options.last = a.last;
  if (!a.all) options.key = a.key;
  report::RunScan scan = report::scan_runs(dir, options);
  for (const std::string& w : scan.warnings)
    std::cerr << "fabricgate: warning: " << report::printable(w) << "\n";
  HistorySource src;
  src.runs = std::move(scan.runs);
  src.where = dir.string();
  src.platform = options.platform;
  src.read = scan.parsed;
  if (src.runs.empty() && !a.all) {
    report::ScanOptions newest;
    newest.last = 1;
    src.newest_for_hint = report::scan_runs(dir, newest).runs;
  }
  return src;
}

int print_key(const HistoryArgs& a, const HistorySource& src, report::HistoryMetric metric) {
  const report::KeyHistory history = report::key_history(src.runs, a.key, metric, a.last);
  if (history.points.empty()) {
    throw InputError(src.where, "",
                     "no run measured key " + a.key + " (" + std::to_string(src.read) +
                         " runs read)" + similar_keys(src.newest_for_hint, a.key));
  }
  const auto points =
      report::history_change_points(history, stats::ChangePointOptions{}, &src.runs);
  if (a.json) {
    nlohmann::json j = report::history_json(history, points);
    j["platform"] = src.platform;
    j["source"] = src.where;
    // ASCII only: a store row may hold C1 controls (U+009B is a CSI to some terminals).
    std::cout << j.dump(2, ' ', true) << "\n";
  } else {
    std::cout << report::console_text(report::render_history_text(history) +
                                      report::render_change_points_text(history, points));
  }
  return 0;
}

int print_all(const HistoryArgs& a, const HistorySource& src, report::HistoryMetric metric) {
  std::set<std::string> keys;
  for (const report::IndexedRun& r : src.runs) {
    for (const auto& [k, m] : r.keys) keys.insert(k);
  }
  nlohmann::json out_keys = nlohmann::json::array();
  std::size_t with_change = 0;
  std::string text;
  // Every run's key map is sorted like `keys`: one cursor per run walks it forwards.
  std::vector<std::map<std::string, report::KeyMedians>::const_iterator> cursor;
  for (const report::IndexedRun& r : src.runs) cursor.push_back(r.keys.begin());
  std::vector<const report::KeyMedians*> medians(src.runs.size());
  for (const std::string& key : keys) {
    for (std::size_t i = 0; i < src.runs.size(); ++i) {
      const auto end = src.runs[i].keys.end();
      while (cursor[i] != end && cursor[i]->first < key) ++cursor[i];
      medians[i] = cursor[i] != end && cursor[i]->first == key ? &cursor[i]->second : nullptr;
    }
    const report::KeyHistory h = report::key_history(src.runs, medians, key, metric, a.last);
    if (h.points.empty()) continue;
    const auto points = report::history_change_points(h, stats::ChangePointOptions{}, &src.runs);
    if (!points.empty()) ++with_change;
    if (a.json) {
      out_keys.push_back({{"key", key},
                          {"metric", verdict::metric_name(h.metric)},
                          {"runs", h.points.size()},
                          {"change_points", report::change_points_json(points)}});
    } else if (!points.empty()) {
      text += report::printable(key) + " (" + std::to_string(h.points.size()) + " runs)\n";
      text += report::render_change_points_text(h, points);
    }
  }
  if (a.json) {
    nlohmann::json j{{"platform", src.platform},
                     {"source", src.where},
                     {"runs", src.runs.size()},
                     {"keys_examined", keys.size()},
                     {"keys_with_change_points", with_change},
                     {"keys", std::move(out_keys)}};
    // ASCII only: a store row may hold C1 controls (U+009B is a CSI to some terminals).
    std::cout << j.dump(2, ' ', true) << "\n";
  } else {
    std::cout << report::console_text(
        report::printable("history of platform " + src.platform + " from " + src.where) + ": " +
        std::to_string(src.runs.size()) + " newest runs, " + std::to_string(keys.size()) +
        " keys, " + std::to_string(with_change) + " with change points\n" + text);
  }
  return 0;
}

int run_history(const HistoryArgs& a) {
  const report::HistoryMetric metric = report::parse_history_metric(a.metric);
  if (a.all == !a.key.empty()) throw InputError("history needs a KEY or --all (not both)");
  const store::StoreLocation l = store::resolve_store_location(a.store, a.results);
  const HistorySource src = use_store(l) ? from_store(a, l) : from_directories(a);
  return a.all ? print_all(a, src, metric) : print_key(a, src, metric);
}

}  // namespace

void add_history_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<HistoryArgs>();
  auto* cmd = app.add_subcommand("history",
                                 "Print the median of one key over the last runs of a platform "
                                 "(date, run id, suite/scenario, median, "
                                 "change vs previous), its trend and its change points (E-divisive "
                                 "means, permutation test); --all scans "
                                 "every key of the platform for change points");
  cmd->footer(
      "Examples:\n"
      "  fabricgate history coll/nccl/all_reduce/float32/sum/bytes:1048576/ranks:2/oop --last 30\n"
      "  fabricgate history --all --platform h200-x2 --json");
  cmd->add_option("key", args->key,
                  "Benchmark key, e.g. coll/nccl/all_reduce/float32/sum/bytes:1048576/ranks:2/oop");
  cmd->add_flag("--all", args->all,
                "Every key of the platform's newest runs: only keys with change points are listed");
  cmd->add_flag("--json", args->json,
                "JSON: points, trend and change_points (each with the run_id of the first run on "
                "the new level)");
  cmd->add_option("--results", args->results,
                  "Results root (<DIR>/<platform>/<run-id>/run.json) or one platform's directory")
      ->capture_default_str();
  cmd->add_option("--store", args->store,
                  "Results store: sqlite:PATH, postgresql://HOST/DB, a libpq conninfo, or none to "
                  "scan run directories "
                  "(default: $FABRICGATE_STORE, else <results>/fabricgate.sqlite when it exists, "
                  "else the scan)");
  cmd->add_option("--platform", args->platform,
                  "Platform key (needed when the store or DIR holds several)");
  cmd->add_option("--last", args->last, "Runs examined, newest last")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd->add_option("--metric", args->metric,
                  "auto (the gate's metric for the size: time below 1 MiB (P15), else "
                  "busbw/algbw), busbw, algbw, time")
      ->check(CLI::IsMember({"auto", "busbw", "algbw", "time"}))
      ->capture_default_str();
  cmd->callback([args, &exit_code] { exit_code = run_history(*args); });
}

}  // namespace fabricgate::cli
