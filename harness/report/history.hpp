#pragma once
// Run history: the runs of one platform found under results/<platform>/, and the medians of one
// key over the last N of them with a trend, so that a slow drift (each run 1 % worse, never beyond
// the gate's tolerance) becomes visible.
//
// The index is a scan of results/<platform>/*/run.json, not an append-only index file. A scan is
// always true to what is on disk: a run deleted, copied in from another runner or committed to
// the repository appears or disappears without an index to repair, and `fabricgate run` needs no
// second write that could be lost on a crash. Cost: run ids begin with the UTC start time
// (YYYYMMDDTHHMMSSZ, see launch/run_orchestrator.cpp), so directory names are listed (cheap) and
// only the newest run.json files are parsed until `last` runs are found. Measured with 500 copies
// of a 42-key quick-suite run.json (95 kB) on the 2-core CI machine: ~4 ms CPU per run parsed;
// `history --last 20` took 0.3 s, all 500 runs 2 s CPU (7 s wall on the loaded machine). An index
// file would pay off only at thousands of runs per platform.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/model/run_record.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::report {

// The medians of one key in one run.
struct KeyMedians {
  std::uint64_t bytes = 0;
  double time_us = 0;
  double algbw_GBps = 0;
  std::optional<double> busbw_GBps;
};

// One run as the history needs it.
struct IndexedRun {
  std::string run_id;
  std::string started_at;  // ISO 8601 UTC
  std::string suite;
  std::string scenario;
  std::string source;  // the run.json it came from
  bool complete = true;
  std::map<std::string, std::string> env;  // scenario environment and captured NCCL_* overrides
  std::map<std::string, KeyMedians> keys;  // ok results only
  nlohmann::json facts;  // compact fingerprint facts when read from the results store, else null
};

IndexedRun index_run(const RunRecord& run);

struct ScanOptions {
  std::string platform;       // runs of another platform are skipped with a warning ("" = any)
  std::size_t last = 0;       // stop after this many runs (newest first); 0 = all
  std::string key;            // when set, only runs that measured this key count (and are kept)
  std::string started_up_to;  // when set, runs that started later are left out (ISO 8601 UTC)
};

struct RunScan {
  std::vector<IndexedRun> runs;       // oldest first (order_runs)
  std::vector<std::string> warnings;  // corrupt or foreign files, interrupted runs
  std::size_t parsed = 0;             // run.json files read
};

// Scans `platform_dir`/*/run.json. Corrupt or foreign files become warnings naming the file;
// throws InputError only when the directory itself cannot be listed.
RunScan scan_runs(const std::filesystem::path& platform_dir, const ScanOptions& options);

// True when `dir` has a subdirectory with a run.json (it is a platform directory of results/).
bool holds_runs(const std::filesystem::path& dir);

// Subdirectories of `results_dir` that hold runs (platform keys), sorted.
std::vector<std::string> platforms_under(const std::filesystem::path& results_dir);

// Oldest first: by started_at, then run id (ids of one second differ by suite and scenario).
void order_runs(std::vector<IndexedRun>& runs);

enum class HistoryMetric { automatic, busbw, algbw, time };

// "auto", "busbw", "algbw", "time"; throws InputError otherwise.
HistoryMetric parse_history_metric(const std::string& name);

struct HistoryPoint {
  std::string run_id;
  std::string started_at;
  std::string suite;
  std::string scenario;
  double value = 0;
  // Against the previous listed run, + better (as `compare`): value / previous - 1 for bandwidth,
  // previous / value - 1 for time.
  std::optional<double> change_vs_previous;
  std::map<std::string, std::string> env;  // of the run (IndexedRun::env)
};

struct KeyHistory {
  std::string key;
  verdict::Metric metric = verdict::Metric::time_us;
  std::vector<HistoryPoint> points;  // oldest first, at most `last`
};

// The key's medians over the last `last` runs of `ordered` (oldest first) that measured it (0 =
// all). `automatic` picks the gate's default metric for the size: time for latency-bound sizes
// (P15), busbw for collectives, algbw otherwise; a run without the chosen figure is left out.
KeyHistory key_history(const std::vector<IndexedRun>& ordered, const std::string& key,
                       HistoryMetric metric, std::size_t last);

// The same from the key's medians already looked up: `medians[i]` is the key's entry in
// ordered[i], nullptr where that run did not measure it (`history --all` finds them for every
// key in one merge pass over the runs' sorted key maps instead of one map search per run and key).
KeyHistory key_history(const std::vector<IndexedRun>& ordered,
                       const std::vector<const KeyMedians*>& medians, const std::string& key,
                       HistoryMetric metric, std::size_t last);

struct Trend {
  std::size_t runs = 0;
  double slope_per_run = 0;              // least-squares slope, metric units per run
  double slope_fraction_per_run = 0;     // the slope over the mean value
  double first_to_last = 0;              // last / first - 1
  double performance_first_to_last = 0;  // same, signed so that + is better (time inverted)
};

// Needs at least two points.
std::optional<Trend> trend_of(const KeyHistory& history);

// Plain-text table: date, run id, suite/scenario, median, change vs previous, and the environment
// settings that not every listed run shares (e.g. NCCL_PROTO=LL128 injected); then the trend.
std::string render_history_text(const KeyHistory& history);

}  // namespace fabricgate::report
