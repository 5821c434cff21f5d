#include "harness/gate/launch_band.hpp"

#include <algorithm>
#include <cmath>

#include "harness/gate/size_class.hpp"
#include "harness/stats/statistics.hpp"
#include "harness/stats/student_t.hpp"

namespace fabricgate::gate {

LaunchBand prediction_band(std::span<const double> launch_medians, double band_alpha) {
  double sum = 0;
  std::size_t n = 0;
  for (const double x : launch_medians) {
    if (x > 0 && std::isfinite(x)) {
      sum += std::log(x);
      ++n;
    }
  }
  if (n == 0) return LaunchBand{};
  // Around their own geometric mean the mean loss is zero (up to rounding), which leaves
  // t * s * sqrt(1 + 1/n): the plain prediction interval.
  return band_around_centre(launch_medians, std::exp(sum / static_cast<double>(n)), false,
                            band_alpha);
}

LaunchBand band_around_centre(std::span<const double> launch_medians, double centre,
                              bool higher_is_better, double band_alpha) {
  LaunchBand b;
  b.centre = centre;
  std::vector<double> losses;
  losses.reserve(launch_medians.size());
  for (const double x : launch_medians) {
    if (!(x > 0 && std::isfinite(x)) || !(centre > 0)) continue;
    losses.push_back(higher_is_better ? std::log(centre / x) : std::log(x / centre));
  }
  b.launches = losses.size();
  if (losses.size() < 2) return b;
  const double n = static_cast<double>(losses.size());
  double mean = 0;
  for (const double l : losses) mean += l;
  mean /= n;
  double ss = 0;
  for (const double l : losses) ss += (l - mean) * (l - mean);
  b.log_sd = std::sqrt(ss / (n - 1));
  b.t_quantile = student_t_quantile(1 - band_alpha, n - 1);
  b.half_width =
      1 - std::exp(-(std::max(0.0, mean) + b.t_quantile * b.log_sd * std::sqrt(1 + 1 / n)));
  return b;
}

LaunchBand launch_band(const TolerancePolicy& policy, const BaselineEntry& entry,
                       const MetricBaseline& metric) {
  LaunchBand b = prediction_band(metric.run_medians, policy.band_alpha);
  if (entry.band && entry.band->launches >= 2) {
    b.half_width = entry.band->half_width;
    b.launches = static_cast<std::size_t>(entry.band->launches);
    b.calibrated = true;
  }
  b.floor = entry.tolerance ? *entry.tolerance : size_class_for(policy, entry.bytes).tolerance;
  b.tolerance = std::max(b.floor, b.half_width);
  b.noisy = b.half_width > policy.max_band;
  return b;
}

double launch_instability(std::span<const double> repetitions) {
  if (repetitions.size() < 3) return 0;
  return robust_relative_spread(repetitions);
}

}  // namespace fabricgate::gate
