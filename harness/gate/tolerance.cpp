#include "harness/gate/tolerance.hpp"

#include <algorithm>

#include "harness/gate/launch_band.hpp"
#include "harness/stats/statistics.hpp"

namespace fabricgate::gate {

double baseline_relative_spread(const MetricBaseline& m) {
  double spread = stats::robust_relative_spread(m.samples);
  if (m.run_medians.size() >= 2 && m.median > 0) {
    const auto [lo, hi] = std::minmax_element(m.run_medians.begin(), m.run_medians.end());
    spread = std::max(spread, 0.5 * (*hi - *lo) / m.median);
  }
  return spread;
}

ToleranceDecision tolerance_for(const TolerancePolicy& policy, const BaselineEntry& entry,
                                const MetricBaseline& metric) {
  const LaunchBand band = launch_band(policy, entry, metric);
  ToleranceDecision d;
  d.static_tolerance = band.floor;
  d.spread = band.log_sd;
  d.tolerance = band.tolerance;
  return d;
}

verdict::Metric metric_from_name(const std::string& name) {
  if (name == "busbw_GBps") return verdict::Metric::busbw_GBps;
  if (name == "algbw_GBps") return verdict::Metric::algbw_GBps;
  return verdict::Metric::time_us;
}

verdict::Metric default_metric(const TolerancePolicy& policy, std::uint64_t bytes, bool has_busbw,
                               bool has_algbw) {
  if (size_class_for(policy, bytes).judged_on_latency) return verdict::Metric::time_us;
  if (has_busbw) return verdict::Metric::busbw_GBps;
  if (has_algbw) return verdict::Metric::algbw_GBps;
  return verdict::Metric::time_us;
}

}  // namespace fabricgate::gate
