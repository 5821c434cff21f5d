#include "harness/baseline/calibration.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "harness/gate/compare.hpp"
#include "harness/gate/judge_run.hpp"
#include "harness/gate/launch_band.hpp"
#include "harness/gate/tolerance.hpp"
#include "harness/stats/statistics.hpp"

namespace fabricgate::baseline {

namespace {

std::vector<double> metric_values(const BenchmarkResult& r, verdict::Metric m) {
  switch (m) {
    case verdict::Metric::busbw_GBps:
      if (!r.samples.busbw_GBps.empty()) return r.samples.busbw_GBps;
      return r.busbw_GBps ? std::vector<double>{*r.busbw_GBps} : std::vector<double>{};
    case verdict::Metric::algbw_GBps:
      return r.samples.algbw_GBps.empty() ? std::vector<double>{r.algbw_GBps}
                                          : r.samples.algbw_GBps;
    case verdict::Metric::time_us:
      return r.samples.time_us.empty() ? std::vector<double>{r.time_us} : r.samples.time_us;
  }
  return {};
}

verdict::Metric metric_for(const BenchmarkResult& r, const Baseline* baseline,
                           const TolerancePolicy& policy) {
  if (baseline) {
    const auto it = baseline->entries.find(r.key);
    if (it != baseline->entries.end()) {
      const verdict::Metric m = gate::metric_from_name(it->second.metric);
      if (m != verdict::Metric::busbw_GBps || r.busbw_GBps) return m;
    }
  }
  return gate::default_metric(policy, r.bytes, r.busbw_GBps.has_value(), r.algbw_GBps > 0);
}

double mean_of(const std::vector<double>& v) {
  double s = 0;
  for (const double x : v) s += x;
  return v.empty() ? 0 : s / static_cast<double>(v.size());
}

double cv_of(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  const double m = mean_of(v);
  double ss = 0;
  for (const double x : v) ss += (x - m) * (x - m);
  return m > 0 ? std::sqrt(ss / static_cast<double>(v.size() - 1)) / m : 0;
}

void require_launches(const std::vector<RunRecord>& launches) {
  if (launches.size() < 2) {
    throw InputError("--launches", "",
                     "at least 2 A/A launches (a launch-to-launch spread needs two), found " +
                         std::to_string(launches.size()));
  }
  for (const RunRecord& r : launches) {
    if (!r.complete)
      throw InputError(r.source, "/complete", "a complete run (" + r.incomplete_reason + ")");
    if (r.platform != launches.front().platform) {
      throw InputError(r.source, "/platform",
                       "\"" + launches.front().platform + "\" like the first launch, found \"" +
                           r.platform + "\"");
    }
  }
}

std::string pct(double fraction) { return fmt::format("{:.1f}%", fraction * 100); }

// One key over the A/A launches: the metric's median per launch and the repetitions' CV.
struct SeenKey {
  std::uint64_t bytes = 0;
  verdict::Metric metric = verdict::Metric::time_us;
  std::vector<double> medians;
  std::vector<double> repetition_cvs;
};

std::map<std::string, SeenKey> collect_keys(const std::vector<RunRecord>& launches,
                                            const Baseline* baseline,
                                            const TolerancePolicy& policy) {
  std::map<std::string, SeenKey> by_key;
  for (const RunRecord& run : launches) {
    for (const BenchmarkResult& r : run.benchmarks) {
      if (r.status != ResultStatus::ok || r.has_error_note()) continue;
      SeenKey& s = by_key[r.key];
      if (s.medians.empty()) {
        s.bytes = r.bytes;
        s.metric = metric_for(r, baseline, policy);
      }
      const std::vector<double> values = metric_values(r, s.metric);
      if (values.empty()) continue;
      s.medians.push_back(stats::median(values));
      s.repetition_cvs.push_back(gate::launch_instability(values));
    }
  }
  return by_key;
}

}  // namespace

verdict::Comparison judge_aa_launch(const RunRecord& launch, const Baseline& baseline) {
  gate::JudgeOptions options;
  options.compare.gate = verdict::GateMode::both;
  return gate::judge_run(launch, &baseline, gate::ConfirmationLauncher{}, nullptr, options);
}

namespace {

// failed[i][key]: launch i fails the gate on key against the baseline. Counts the failing
// launches, and those the next launch (the confirmation) would confirm, into `t`.
using FailedKeys = std::vector<std::map<std::string, bool>>;

FailedKeys gate_each_launch(const std::vector<RunRecord>& launches, const Baseline& baseline,
                            CalibrationTable& t) {
  FailedKeys failed(launches.size());
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const verdict::Comparison c = judge_aa_launch(launches[i], baseline);
    for (const verdict::KeyComparison& k : c.keys) {
      if (verdict::verdict_fails_gate(k.verdict) && !k.missing_because_incomplete)
        failed[i][k.key] = true;
    }
    if (c.failing_count() > 0) ++t.launches_failing;
  }
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const auto& next = failed[(i + 1) % launches.size()];
    bool confirmed = false;
    for (const auto& [key, yes] : failed[i]) confirmed = confirmed || next.count(key);
    if (confirmed) ++t.launches_failing_confirmed;
  }
  return failed;
}

CalibrationRow calibration_row(const std::string& key, const SeenKey& s, const Baseline* baseline,
                               const TolerancePolicy& policy, const FailedKeys& failed) {
  CalibrationRow row;
  row.key = key;
  row.bytes = s.bytes;
  row.metric = s.metric;
  row.size_class = size_class_for(policy, s.bytes).name;
  row.launches = s.medians.size();
  row.launch_cv = cv_of(s.medians);
  std::vector<double> cvs = s.repetition_cvs;
  row.repetition_cv = stats::median(cvs);
  BaselineEntry probe;
  probe.bytes = s.bytes;
  MetricBaseline aa;
  aa.run_medians = s.medians;
  gate::LaunchBand band = gate::launch_band(policy, probe, aa);
  if (baseline) {
    if (const auto it = baseline->entries.find(key); it != baseline->entries.end()) {
      const MetricBaseline& m = s.metric == verdict::Metric::busbw_GBps && it->second.busbw_GBps
                                    ? *it->second.busbw_GBps
                                : s.metric == verdict::Metric::algbw_GBps ? it->second.algbw_GBps
                                                                          : it->second.time_us;
      const gate::LaunchBand own = gate::launch_band(policy, it->second, m);
      row.baseline_band = own.tolerance;
      // Against a baseline the band is what these launches need around ITS centre, which the
      // gate compares every later launch with (launch_band.hpp, band_around_centre).
      const gate::LaunchBand around = gate::band_around_centre(
          s.medians, own.centre, verdict::metric_higher_is_better(s.metric), policy.band_alpha);
      band.half_width = around.half_width;
      band.log_sd = around.log_sd;
      band.floor = own.floor;
      band.tolerance = std::max(band.floor, band.half_width);
      band.noisy = band.half_width > policy.max_band;
    }
  }
  row.band = band.half_width;
  row.mde = band.tolerance;
  row.noisy = band.noisy;
  // 80 % power: the shift must clear the threshold by z_0.8 = 0.8416 launch standard deviations.
  const double threshold = -std::log(1 - row.mde);
  row.mde80 = 1 - std::exp(-(threshold + 0.8416 * band.log_sd));
  for (std::size_t i = 0; i < failed.size(); ++i) {
    if (!failed[i].count(key)) continue;
    ++row.failing;
    if (failed[(i + 1) % failed.size()].count(key)) ++row.failing_confirmed;
  }
  return row;
}

SizeClassSummary summarise_class(const SizeClass& c, const std::vector<CalibrationRow>& rows) {
  SizeClassSummary sum;
  sum.name = c.name;
  std::vector<double> mdes;
  for (const CalibrationRow& r : rows) {
    if (r.size_class != c.name) continue;
    ++sum.keys;
    if (r.noisy) {
      ++sum.noisy;
      continue;
    }
    mdes.push_back(r.mde);
  }
  if (!mdes.empty()) {
    sum.median_mde = stats::median(mdes);
    sum.max_mde = *std::max_element(mdes.begin(), mdes.end());
  }
  return sum;
}

}  // namespace

CalibrationTable calibrate(const std::vector<RunRecord>& launches, const Baseline* baseline,
                           const TolerancePolicy& given) {
  require_launches(launches);
  TolerancePolicy policy = baseline ? baseline->policy : given;
  CalibrationTable t;
  t.launches = launches.size();
  t.has_baseline = baseline != nullptr;
  const std::map<std::string, SeenKey> by_key = collect_keys(launches, baseline, policy);
  // Without a baseline the family is every key these launches measured (a baseline's own policy
  // already carries its per-key level).
  if (!baseline) set_family_size(policy, by_key.size());
  // Failures per launch and key against the baseline (none without one).
  const FailedKeys failed =
      baseline ? gate_each_launch(launches, *baseline, t) : FailedKeys(launches.size());
  for (const auto& [key, s] : by_key)
    t.rows.push_back(calibration_row(key, s, baseline, policy, failed));
  for (const SizeClass& c : policy.size_classes) t.classes.push_back(summarise_class(c, t.rows));
  return t;
}

std::string render_calibration(const CalibrationTable& t) {
  std::size_t width = 3;
  for (const CalibrationRow& r : t.rows) width = std::max(width, r.key.size());
  std::string out = "calibration over " + std::to_string(t.launches) + " A/A launches";
  if (t.has_baseline) {
    out += ": the baseline fails " + std::to_string(t.launches_failing) +
           " of them without confirmation, " + std::to_string(t.launches_failing_confirmed) +
           " with a confirmation launch";
  }
  out += "\n\n";
  // {fmt} pads to display width: columns stay aligned for a key that is not ASCII.
  constexpr std::string_view kRow = "{:<{}}  {:<6}  {:<10}  {:>7}  {:>7}  {:>7}  {:>7}  {}\n";
  out += fmt::format(kRow, "key", width, "class", "metric", "launchCV", "repCV", "MDE", "MDE80",
                     t.has_baseline ? "fails (confirmed)  baseline band" : "");
  for (const CalibrationRow& r : t.rows) {
    std::string tail;
    if (t.has_baseline) {
      tail = std::to_string(r.failing) + "/" + std::to_string(t.launches) + " (" +
             std::to_string(r.failing_confirmed) + ")  " +
             (r.baseline_band > 0 ? pct(r.baseline_band) : "not in baseline");
    }
    if (r.noisy) tail += "  NOISY: launch-to-launch noise too large to gate (informational)";
    out += fmt::format(kRow, r.key, width, r.size_class, verdict::metric_name(r.metric),
                       pct(r.launch_cv), pct(r.repetition_cv), pct(r.mde), pct(r.mde80), tail);
  }
  out += "\nper size class (MDE: smallest loss that fails one launch; over gateable keys):\n";
  for (const SizeClassSummary& c : t.classes) {
    out += fmt::format("  {:<8} {:3} keys, {:3} NOISY, median MDE {}, worst {}\n", c.name, c.keys,
                       c.noisy, pct(c.median_mde), pct(c.max_mde));
  }
  return out;
}

std::size_t write_calibrated_bands(Baseline& baseline, const CalibrationTable& t,
                                   const std::string& now) {
  std::size_t written = 0;
  for (const CalibrationRow& r : t.rows) {
    auto it = baseline.entries.find(r.key);
    if (it == baseline.entries.end() || r.launches < 2) continue;
    it->second.band = CalibratedBand{r.band, static_cast<int>(r.launches), r.launch_cv, now};
    ++written;
  }
  return written;
}

}  // namespace fabricgate::baseline
