#include "harness/gate/drift.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "harness/stats/statistics.hpp"
#include "harness/stats/student_t.hpp"
#include "harness/verdict/units_text.hpp"

namespace fabricgate::gate {

std::optional<DriftFinding> detect_drift(std::span<const double> series, bool higher_is_better,
                                         const DriftPolicy& policy,
                                         const ChangePointOptions& options) {
  const std::size_t n = std::min(series.size(), std::max<std::size_t>(policy.window, 2));
  const std::span<const double> window = series.subspan(series.size() - n);
  const std::vector<ChangePoint> cps = find_change_points(window, options);
  if (cps.empty()) return std::nullopt;
  std::vector<std::size_t> bounds{0};
  for (const ChangePoint& cp : cps) bounds.push_back(cp.index);
  bounds.push_back(window.size());
  auto level = [&](std::size_t segment) {
    return median(window.subspan(bounds[segment], bounds[segment + 1] - bounds[segment]));
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
      policy.threshold, drift_noise_threshold(window, on_level, bounds[1], policy.band_alpha));
  const double worse_than = 1 - threshold;
  if (performance(current) >= worse_than ||
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
                             std::size_t before, double band_alpha) {
  std::vector<double> diffs;
  for (std::size_t i = 1; i < series.size(); ++i) {
    if (series[i] > 0 && series[i - 1] > 0)
      diffs.push_back(std::log(series[i]) - std::log(series[i - 1]));
  }
  if (diffs.size() < 2 || on_level == 0 || before == 0) return 0;
  const double centre = median(diffs);
  std::vector<double> deviations;
  deviations.reserve(diffs.size());
  for (const double d : diffs) deviations.push_back(std::fabs(d - centre));
  // A difference of two launches has twice one launch's variance.
  const double sigma = 1.4826 * median(deviations) / std::sqrt(2.0);
  const double t = student_t_quantile(1 - band_alpha, static_cast<double>(diffs.size() - 1));
  const double h =
      t * sigma * std::sqrt(1 / static_cast<double>(on_level) + 1 / static_cast<double>(before));
  return 1 - std::exp(-h);
}

DriftPolicy drift_policy_from(const TolerancePolicy& policy) {
  DriftPolicy d;
  d.threshold = policy.drift_threshold;
  d.min_runs = policy.drift_min_runs;
  d.band_alpha = policy.band_alpha;
  return d;
}

void sort_by_urgency(std::vector<KeyComparison>& keys) {
  std::stable_sort(keys.begin(), keys.end(), [](const KeyComparison& a, const KeyComparison& b) {
    return static_cast<int>(a.verdict) < static_cast<int>(b.verdict);
  });
}

bool drift_applies_to(Verdict v) {
  return v == Verdict::pass || v == Verdict::ambiguous || v == Verdict::new_key;
}

Metric drift_metric(const KeyComparison& key) {
  if (key.judgement) return key.judgement->metric;
  if (key.busbw_now) return Metric::busbw_GBps;
  return key.time_us_now > 0 ? Metric::time_us : Metric::algbw_GBps;
}

void mark_drift(KeyComparison& key, const DriftFinding& f, const KeySeries& s,
                const DriftPolicy& policy) {
  const bool is_time = drift_metric(key) == Metric::time_us;
  const std::string began = f.began_index < s.run_ids.size() ? s.run_ids[f.began_index] : "?";
  key.verdict = Verdict::drift;
  key.reason = std::string(metric_name(drift_metric(key))) + " drifted to a level " +
               format_percent(f.performance_ratio - 1) + " (" +
               format_metric(f.reference_level, is_time) + " -> " +
               format_metric(f.current_level, is_time) + ", " + std::to_string(f.runs_on_level) +
               " runs on it; drift threshold " + format_percent(-f.threshold) +
               (f.threshold > policy.threshold ? " (this key's launch noise)" : "") +
               " for >= " + std::to_string(policy.min_runs) + " runs); began at run " + began +
               " (change point p = " + format_p_value(f.p_value) + ")";
}

}  // namespace fabricgate::gate
