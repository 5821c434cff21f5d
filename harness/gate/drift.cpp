#include "harness/gate/drift.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "harness/gate/launch_band.hpp"
#include "harness/gate/outcome.hpp"
#include "harness/gate/stored_level_check.hpp"
#include "harness/stats/statistics.hpp"
#include "harness/verdict/units_text.hpp"
#include "harness/verdict/verdict_table.hpp"

namespace fabricgate::gate {

std::optional<DriftFinding> detect_drift(std::span<const double> series, bool higher_is_better,
                                         const DriftPolicy& policy,
                                         const stats::ChangePointOptions& options) {
  const std::size_t n = std::min(series.size(), std::max<std::size_t>(policy.window, 2));
  const std::span<const double> window = series.subspan(series.size() - n);
  const std::vector<stats::ChangePoint> cps = stats::find_change_points(window, options);
  if (cps.empty()) return std::nullopt;
  std::vector<std::size_t> bounds{0};
  for (const stats::ChangePoint& cp : cps) bounds.push_back(cp.index);
  bounds.push_back(window.size());
  auto level = [&](std::size_t segment) {
    return stats::median(window.subspan(bounds[segment], bounds[segment + 1] - bounds[segment]));
  };
  const double reference = level(0);
  if (reference <= 0) return std::nullopt;
  auto performance = [&](double value) {
    if (value <= 0) return 0.0;
    return higher_is_better ? value / reference : reference / value;
  };
  const std::size_t segments = bounds.size() - 1;
  const double current = level(segments - 1);
  const std::size_t on_level = bounds[segments] - bounds[segments - 1];
  const double threshold = std::max(
      policy.threshold,
      drift_noise_threshold(window, on_level, bounds[1], policy.band_alpha, policy.between_sd));
  const double worse_than = 1 - threshold;
  // DRIFT is a change of level that the judged run (the last value) is part of: a run whose own
  // value is back inside the threshold of the reference has recovered, whatever the median of the
  // level it ends says (a fix that restores performance must not fail the gate).
  if (performance(current) >= worse_than || performance(window.back()) >= worse_than ||
      on_level < static_cast<std::size_t>(std::max(policy.min_runs, 1))) {
    return std::nullopt;
  }
  // Walk back while the levels stay worse than the threshold: the earliest of them began it.
  std::size_t first_bad = segments - 1;
  while (first_bad > 1 && performance(level(first_bad - 1)) < worse_than) --first_bad;
  DriftFinding f;
  f.began_index = series.size() - n + bounds[first_bad];
  f.runs_on_level = on_level;
  f.reference_level = reference;
  f.current_level = current;
  f.performance_ratio = performance(current);
  f.p_value = cps[first_bad - 1].p_value;
  f.threshold = threshold;
  return f;
}

double drift_noise_threshold(std::span<const double> series, std::size_t on_level,
                             std::size_t before, double band_alpha, double between_sd) {
  std::vector<double> diffs;
  for (std::size_t i = 1; i < series.size(); ++i) {
    if (series[i] > 0 && series[i - 1] > 0)
      diffs.push_back(std::log(series[i]) - std::log(series[i - 1]));
  }
  if (diffs.size() < 2 || on_level == 0 || before == 0) return 0;
  const double centre = stats::median(diffs);
  std::vector<double> deviations;
  deviations.reserve(diffs.size());
  for (const double d : diffs) deviations.push_back(std::fabs(d - centre));
  // A difference of two launches has twice one launch's variance.
  const double sigma = 1.4826 * stats::median(deviations) / std::sqrt(2.0);
  const double t = stats::student_t_quantile(1 - band_alpha, static_cast<double>(diffs.size() - 1));
  const double h =
      t * std::sqrt(sigma * sigma *
                        (1 / static_cast<double>(on_level) + 1 / static_cast<double>(before)) +
                    2 * between_sd * between_sd);
  return 1 - std::exp(-h);
}

DriftPolicy drift_policy_from(const TolerancePolicy& policy) {
  DriftPolicy d;
  d.threshold = policy.drift_threshold;
  d.min_runs = policy.drift_min_runs;
  d.band_alpha = policy.band_alpha;
  return d;
}

void sort_by_urgency(std::vector<verdict::KeyComparison>& keys) {
  std::stable_sort(keys.begin(), keys.end(),
                   [](const verdict::KeyComparison& a, const verdict::KeyComparison& b) {
                     return static_cast<int>(a.verdict) < static_cast<int>(b.verdict);
                   });
}

bool drift_applies_to(verdict::Verdict v) { return verdict::facts_of(v).may_drift; }

verdict::Metric drift_metric(const verdict::KeyComparison& key) {
  if (key.judgement) return key.judgement->metric;
  if (key.busbw_now) return verdict::Metric::busbw_GBps;
  return key.time_us_now > 0 ? verdict::Metric::time_us : verdict::Metric::algbw_GBps;
}

void mark_drift(verdict::KeyComparison& key, const DriftFinding& f, const KeySeries& s,
                const DriftPolicy& policy) {
  const bool is_time = drift_metric(key) == verdict::Metric::time_us;
  const std::string began = f.began_index < s.run_ids.size() ? s.run_ids[f.began_index] : "?";
  key.verdict = verdict::Verdict::drift;
  key.reason = std::string(verdict::metric_name(drift_metric(key))) + " drifted to a level " +
               verdict::format_percent(f.performance_ratio - 1) + " (" +
               verdict::format_metric(f.reference_level, is_time) + " -> " +
               verdict::format_metric(f.current_level, is_time) + ", " +
               std::to_string(f.runs_on_level) + " runs on it; drift threshold " +
               verdict::format_percent(-f.threshold) +
               (f.threshold > policy.threshold ? " (this key's launch noise)" : "") +
               " for >= " + std::to_string(policy.min_runs) + " runs); began at run " + began +
               " (change point p = " + verdict::format_p_value(f.p_value) + ")";
}

namespace {

std::optional<double> value_of(verdict::Metric metric, double time_us, double algbw,
                               std::optional<double> busbw) {
  switch (metric) {
    case verdict::Metric::time_us:
      return time_us > 0 ? std::optional<double>(time_us) : std::nullopt;
    case verdict::Metric::algbw_GBps:
      return algbw > 0 ? std::optional<double>(algbw) : std::nullopt;
    case verdict::Metric::busbw_GBps: return busbw;
  }
  return std::nullopt;
}

// The between-session SD of the key's judged metric in the baseline (0 when not estimated).
double between_sd_of(const Baseline* baseline, const verdict::KeyComparison& k) {
  if (!baseline || !k.judgement) return 0;
  const auto it = baseline->entries.find(k.key);
  if (it == baseline->entries.end()) return 0;
  const BaselineEntry& e = it->second;
  const MetricBaseline& m = k.judgement->metric == verdict::Metric::busbw_GBps && e.busbw_GBps
                                ? *e.busbw_GBps
                            : k.judgement->metric == verdict::Metric::algbw_GBps ? e.algbw_GBps
                                                                                 : e.time_us;
  // Only a measured between-session term widens DRIFT's threshold: the allowance that stands in
  // for it below min_sessions is a guess about other machines, not this host's sessions.
  const LaunchBand b = launch_band(baseline->policy, e, m);
  return b.between_estimated ? b.between_sd : 0;
}

// Which stored launches are too far from the fleet to be a level (stored_level_check.hpp), per
// key and metric against the baseline's fleet band and host spread.
class StoredLevelGuard {
 public:
  StoredLevelGuard(const Baseline* baseline, std::string host)
      : baseline_(baseline), host_(std::move(host)) {
    if (baseline_) hosts_ = session_hosts(*baseline_);
  }
  bool implausible(const std::string& key, verdict::Metric metric, double value) const {
    if (!baseline_ || hosts_.empty()) return false;
    const auto it = baseline_->entries.find(key);
    if (it == baseline_->entries.end()) return false;
    const BaselineEntry& e = it->second;
    const MetricBaseline& m = metric == verdict::Metric::busbw_GBps && e.busbw_GBps ? *e.busbw_GBps
                              : metric == verdict::Metric::algbw_GBps               ? e.algbw_GBps
                                                                                    : e.time_us;
    return implausible_stored_level(value, launch_band(baseline_->policy, e, m), m, hosts_, host_,
                                    verdict::metric_higher_is_better(metric))
        .has_value();
  }

 private:
  const Baseline* baseline_;
  std::string host_;
  std::map<std::string, std::string> hosts_;
};

// A verdict name as the store keeps it: true unless that verdict fails the gate.
bool verdict_name_passes(const std::string& name) {
  if (name == kBusyLaunchVerdict) return false;  // measured on a busy runner: not a level
  for (const verdict::VerdictFacts& f : verdict::verdict_table()) {
    if (name == f.name) return !f.fails;
  }
  return true;  // a name this build does not know: kept, as before verdicts were read
}

}  // namespace

std::size_t apply_history_drift(verdict::Comparison& comparison, const RunRecord& run,
                                const RunHistory& history, const DriftPolicy& policy,
                                const Baseline* baseline) {
  std::map<std::string, verdict::Metric> wanted;
  for (const verdict::KeyComparison& k : comparison.keys) {
    if (drift_applies_to(k.verdict)) wanted.emplace(k.key, drift_metric(k));
  }
  std::map<std::string, KeySeries> series;
  std::size_t other_hosts = 0;
  std::size_t set_aside = 0;
  const StoredLevelGuard guard(baseline, run.host_id);
  for (const HistoryRun& r : history.runs) {
    if (!run.host_id.empty() && !r.host_id.empty() && r.host_id != run.host_id) {
      ++other_hosts;
      continue;
    }
    for (const HistoryMedian& m : r.medians) {
      const auto w = wanted.find(m.key);
      if (w == wanted.end()) continue;
      // A launch that already failed (REGRESSION, ...) was reported as such: it does not make a
      // level that fails later runs a second time. Earlier DRIFT runs stay: they are the level.
      if (!m.verdict.empty() && m.verdict != "DRIFT" && !verdict_name_passes(m.verdict)) continue;
      if (const auto v = value_of(w->second, m.time_us, m.algbw_GBps, m.busbw_GBps)) {
        // A stored launch further from the fleet than any of its hosts (and one launch's band)
        // is a finding, not part of a level the run could have drifted from.
        if (guard.implausible(m.key, w->second, *v)) {
          ++set_aside;
          continue;
        }
        KeySeries& s = series[m.key];
        s.run_ids.push_back(r.run_id);
        s.values.push_back(*v);
      }
    }
  }
  for (const BenchmarkResult& b : run.benchmarks) {
    const auto w = wanted.find(b.key);
    const auto s = series.find(b.key);
    if (w == wanted.end() || s == series.end()) continue;
    if (const auto v = value_of(w->second, b.time_us, b.algbw_GBps, b.busbw_GBps)) {
      s->second.run_ids.push_back(run.run_id);
      s->second.values.push_back(*v);
    }
  }
  for (const verdict::KeyComparison& k : comparison.keys) {
    if (const auto s = series.find(k.key); s != series.end())
      s->second.between_sd = between_sd_of(baseline, k);
  }
  const std::size_t drifted = apply_drift(comparison, policy, stats::ChangePointOptions{},
                                          [&](const verdict::KeyComparison& k) -> const KeySeries* {
                                            const auto it = series.find(k.key);
                                            return it == series.end() ? nullptr : &it->second;
                                          });
  if (drifted > 0) {
    comparison.warnings.push_back(
        std::to_string(drifted) + " key(s) DRIFT: the recent runs of this host in " +
        history.source + " sit on a level worse than the drift threshold" +
        (other_hosts ? " (" + std::to_string(other_hosts) + " runs of other hosts left out)" : ""));
  }
  if (set_aside > 0) {
    comparison.warnings.push_back(
        std::to_string(set_aside) + " stored launch(es) of this host in " + history.source +
        " lie further from the fleet than any host of the baseline: left out of the DRIFT "
        "series (a finding, not a level; check the store's rows for this host)");
  }
  return drifted;
}

std::string unsealed_runs_warning(const RunHistory& history) {
  return std::to_string(history.unsealed_runs) + " stored run(s) in " + history.source +
         " carry no seal that this machine's host key verifies: left out of the host's level and "
         "its DRIFT series (only rows that `fabricgate run` recorded on this machine count; the "
         "others were imported, recorded by `compare`, written on another machine or before "
         "schema v5, or forged" +
         (history.host_key_here ? std::string(")")
                                : std::string("; this machine has no host key yet)"));
}

std::size_t apply_drift(verdict::Comparison& comparison, const DriftPolicy& policy,
                        const stats::ChangePointOptions& options, const SeriesLookup& series_of) {
  std::size_t marked = 0;
  for (verdict::KeyComparison& k : comparison.keys) {
    if (!drift_applies_to(k.verdict)) continue;
    const KeySeries* s = series_of(k);
    if (!s || s->values.size() < 2) continue;
    stats::ChangePointOptions per_key = options;
    per_key.seed = stats::seed_for(options.seed, k.key);
    DriftPolicy key_policy = policy;
    key_policy.between_sd = s->between_sd;
    const auto finding = detect_drift(s->values, verdict::metric_higher_is_better(drift_metric(k)),
                                      key_policy, per_key);
    if (!finding) continue;
    mark_drift(k, *finding, *s, policy);
    ++marked;
  }
  if (marked > 0) {
    settle_outcome(comparison);
    sort_by_urgency(comparison.keys);
  }
  return marked;
}

}  // namespace fabricgate::gate
