#include "harness/report/history.hpp"

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "harness/gate/tolerance.hpp"
#include "harness/verdict/units_text.hpp"

namespace fabricgate::report {

namespace fs = std::filesystem;

IndexedRun index_run(const RunRecord& run) {
  IndexedRun r;
  r.run_id = run.run_id;
  r.started_at = run.started_at;
  r.suite = run.suite;
  r.scenario = run.scenario;
  r.source = run.source;
  r.complete = run.complete;
  r.env = run.capture.env_overrides;
  for (const auto& [name, value] : run.scenario_env) r.env[name] = value;
  for (const BenchmarkResult& b : run.benchmarks) {
    if (b.status != ResultStatus::ok || b.has_error_note()) continue;  // no believable median
    r.keys[b.key] = KeyMedians{b.bytes, b.time_us, b.algbw_GBps, b.busbw_GBps};
  }
  return r;
}

bool holds_runs(const fs::path& dir) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_directory(ec) && fs::exists(it->path() / "run.json", ec)) return true;
  }
  return false;
}

std::vector<std::string> platforms_under(const fs::path& results_dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(results_dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_directory(ec) && holds_runs(it->path()))
      out.push_back(it->path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

void order_runs(std::vector<IndexedRun>& runs) {
  std::stable_sort(runs.begin(), runs.end(), [](const IndexedRun& a, const IndexedRun& b) {
    return a.started_at != b.started_at ? a.started_at < b.started_at : a.run_id < b.run_id;
  });
}

RunScan scan_runs(const fs::path& platform_dir, const ScanOptions& options) {
  std::error_code ec;
  std::vector<fs::path> dirs;
  for (fs::directory_iterator it(platform_dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_directory(ec)) dirs.push_back(it->path());
  }
  if (ec)
    throw InputError(platform_dir.string(), "",
                     "a readable results directory (" + ec.message() + ")");
  // Newest first by name: run ids start with the UTC start time (see the header).
  std::sort(dirs.begin(), dirs.end(),
            [](const fs::path& a, const fs::path& b) { return a.filename() > b.filename(); });
  RunScan scan;
  for (const fs::path& dir : dirs) {
    if (options.last > 0 && scan.runs.size() >= options.last) break;
    const fs::path file = dir / "run.json";
    if (!fs::exists(file, ec)) {
      if (fs::exists(dir / "records.jsonl", ec)) {
        scan.warnings.push_back(dir.string() +
                                ": records.jsonl without run.json (an interrupted run, or not "
                                "written by `fabricgate run`); not in the history");
      }
      continue;  // other folders (reference outputs, notes) are not runs
    }
    ++scan.parsed;
    RunRecord run;
    try {
      run = load_run(file);
    } catch (const InputError& e) {
      scan.warnings.push_back("skipped " + file.string() + ": " + e.what());
      continue;
    }
    if (!options.platform.empty() && run.platform != options.platform) {
      scan.warnings.push_back("skipped " + file.string() + ": platform " + run.platform + ", not " +
                              options.platform +
                              " (a run filed under another platform's directory)");
      continue;
    }
    if (!options.started_up_to.empty() && run.started_at > options.started_up_to) continue;
    IndexedRun indexed = index_run(run);
    if (!options.key.empty() && indexed.keys.count(options.key) == 0) continue;
    scan.runs.push_back(std::move(indexed));
  }
  order_runs(scan.runs);
  return scan;
}

HistoryMetric parse_history_metric(const std::string& name) {
  if (name == "auto") return HistoryMetric::automatic;
  if (name == "busbw") return HistoryMetric::busbw;
  if (name == "algbw") return HistoryMetric::algbw;
  if (name == "time") return HistoryMetric::time;
  throw InputError("unknown history metric \"" + name + "\" (expected auto, busbw, algbw or time)");
}

namespace {

std::optional<double> figure(const KeyMedians& m, verdict::Metric metric) {
  switch (metric) {
    case verdict::Metric::busbw_GBps: return m.busbw_GBps;
    case verdict::Metric::algbw_GBps:
      return m.algbw_GBps > 0 ? std::optional<double>(m.algbw_GBps) : std::nullopt;
    case verdict::Metric::time_us:
      return m.time_us > 0 ? std::optional<double>(m.time_us) : std::nullopt;
  }
  return std::nullopt;
}

verdict::Metric choose_metric(const KeyMedians& newest, HistoryMetric wanted) {
  switch (wanted) {
    case HistoryMetric::busbw: return verdict::Metric::busbw_GBps;
    case HistoryMetric::algbw: return verdict::Metric::algbw_GBps;
    case HistoryMetric::time: return verdict::Metric::time_us;
    case HistoryMetric::automatic: break;
  }
  return gate::default_metric(TolerancePolicy::defaults(), newest.bytes,
                              newest.busbw_GBps.has_value(), newest.algbw_GBps > 0);
}

}  // namespace

KeyHistory key_history(const std::vector<IndexedRun>& ordered, const std::string& key,
                       HistoryMetric metric, std::size_t last) {
  std::vector<const KeyMedians*> medians;
  medians.reserve(ordered.size());
  for (const IndexedRun& r : ordered) {
    const auto k = r.keys.find(key);
    medians.push_back(k == r.keys.end() ? nullptr : &k->second);
  }
  return key_history(ordered, medians, key, metric, last);
}

KeyHistory key_history(const std::vector<IndexedRun>& ordered,
                       const std::vector<const KeyMedians*>& medians, const std::string& key,
                       HistoryMetric metric, std::size_t last) {
  KeyHistory h;
  h.key = key;
  const KeyMedians* newest = nullptr;
  for (std::size_t i = ordered.size(); i-- > 0 && !newest;) newest = medians[i];
  if (!newest) return h;
  h.metric = choose_metric(*newest, metric);
  for (std::size_t i = ordered.size(); i-- > 0;) {
    if (last > 0 && h.points.size() >= last) break;
    if (!medians[i]) continue;
    const std::optional<double> v = figure(*medians[i], h.metric);
    if (!v) continue;
    const IndexedRun& r = ordered[i];
    h.points.push_back({r.run_id, r.started_at, r.suite, r.scenario, *v, std::nullopt, r.env});
  }
  std::reverse(h.points.begin(), h.points.end());
  // The sign `compare` uses: + is better (a shorter time, a higher bandwidth).
  const bool higher_better = verdict::metric_higher_is_better(h.metric);
  for (std::size_t i = 1; i < h.points.size(); ++i) {
    const double prev = h.points[i - 1].value;
    const double now = h.points[i].value;
    if (prev > 0 && now > 0)
      h.points[i].change_vs_previous = higher_better ? now / prev - 1 : prev / now - 1;
  }
  return h;
}

std::optional<Trend> trend_of(const KeyHistory& h) {
  const std::size_t n = h.points.size();
  if (n < 2) return std::nullopt;
  double mean_x = 0;
  double mean_y = 0;
  for (std::size_t i = 0; i < n; ++i) {
    mean_x += static_cast<double>(i);
    mean_y += h.points[i].value;
  }
  mean_x /= static_cast<double>(n);
  mean_y /= static_cast<double>(n);
  double sxy = 0;
  double sxx = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double dx = static_cast<double>(i) - mean_x;
    sxy += dx * (h.points[i].value - mean_y);
    sxx += dx * dx;
  }
  Trend t;
  t.runs = n;
  t.slope_per_run = sxy / sxx;
  t.slope_fraction_per_run = mean_y != 0 ? t.slope_per_run / mean_y : 0;
  const double first = h.points.front().value;
  const double last = h.points.back().value;
  t.first_to_last = first != 0 ? last / first - 1 : 0;
  t.performance_first_to_last = verdict::metric_higher_is_better(h.metric) ? t.first_to_last
                                : last != 0                                ? first / last - 1
                                                                           : 0;
  return t;
}

namespace {

std::string padded(const std::string& text, std::size_t width) {
  return text.size() >= width ? text + " " : text + std::string(width - text.size(), ' ');
}

// Settings of one run that some other listed run does not share: what makes that run different.
std::string differing_env(const KeyHistory& h, const HistoryPoint& p) {
  std::string out;
  for (const auto& [name, value] : p.env) {
    // Named copies: clang 14 (the fuzz build) cannot capture structured bindings.
    const bool shared = std::all_of(h.points.begin(), h.points.end(),
                                    [&n = name, &v = value](const HistoryPoint& q) {
                                      const auto it = q.env.find(n);
                                      return it != q.env.end() && it->second == v;
                                    });
    if (!shared) out += (out.empty() ? "" : " ") + name + "=" + value;
  }
  return out;
}

}  // namespace

std::string render_history_text(const KeyHistory& h) {
  const bool is_time = h.metric == verdict::Metric::time_us;
  std::string out = "history of " + h.key + " (" + verdict::metric_name(h.metric) +
                    ", median per run, " + std::to_string(h.points.size()) +
                    " runs, oldest first)\n";
  if (h.points.empty()) return out + "no run under the results directory measured this key\n";
  std::size_t id_width = 8;
  for (const HistoryPoint& p : h.points) id_width = std::max(id_width, p.run_id.size() + 2);
  out += padded("DATE", 22) + padded("RUN", id_width) + padded("SUITE/SCENARIO", 24) +
         padded("MEDIAN", 14) + padded("VS PREV (+ = better)", 21) +
         "SETTINGS NOT SHARED BY ALL LISTED RUNS\n";
  for (const HistoryPoint& p : h.points) {
    const std::string change =
        p.change_vs_previous ? verdict::format_percent(*p.change_vs_previous) : "-";
    std::string line = padded(p.started_at, 22) + padded(p.run_id, id_width) +
                       padded(p.suite + "/" + p.scenario, 24) +
                       padded(verdict::format_metric(p.value, is_time), 14) + padded(change, 21) +
                       differing_env(h, p);
    while (line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  if (const auto t = trend_of(h)) {
    out += "trend: " + std::string(verdict::metric_name(h.metric)) + " " +
           verdict::format_percent(t->slope_fraction_per_run) +
           " per run (least squares: " + verdict::format_metric(t->slope_per_run, is_time) +
           " per run); first -> last " + verdict::format_percent(t->first_to_last) + ", i.e. " +
           (t->performance_first_to_last >= 0 ? "better" : "worse") + " by " +
           verdict::format_percent(std::abs(t->performance_first_to_last)).substr(1) + "\n";
  } else {
    out += "trend: needs at least two runs\n";
  }
  return out;
}

}  // namespace fabricgate::report
