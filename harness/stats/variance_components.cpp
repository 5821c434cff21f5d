#include "harness/stats/variance_components.hpp"

#include <algorithm>

namespace fabricgate::stats {

VarianceComponents variance_components(std::span<const std::vector<double>> log_groups,
                                       const ComponentOptions& options) {
  VarianceComponents c;
  std::vector<double> means;
  std::vector<double> sizes;
  double total = 0;
  double ss_within = 0;
  for (const auto& g : log_groups) {
    if (g.empty()) continue;
    double m = 0;
    for (const double x : g) m += x;
    total += m;
    m /= static_cast<double>(g.size());
    for (const double x : g) ss_within += (x - m) * (x - m);
    means.push_back(m);
    sizes.push_back(static_cast<double>(g.size()));
  }
  c.sessions = means.size();
  if (c.sessions == 0) return c;
  const double s = static_cast<double>(c.sessions);
  double n = 0;
  double sum_sq_sizes = 0;
  double sum_inv_sizes = 0;
  for (const double k : sizes) {
    n += k;
    sum_sq_sizes += k * k;
    sum_inv_sizes += 1 / k;
  }
  c.values = static_cast<std::size_t>(n);
  for (const double m : means) c.centre += m;
  c.centre /= s;
  const double weighted_mean = total / n;
  c.within_measured = n > s;
  if (c.within_measured) c.ms_within = ss_within / (n - s);
  if (c.sessions >= 2) {
    double ss_between = 0;
    for (std::size_t i = 0; i < means.size(); ++i)
      ss_between += sizes[i] * (means[i] - weighted_mean) * (means[i] - weighted_mean);
    c.ms_between = ss_between / (s - 1);
    c.n0 = (n - sum_sq_sizes / n) / (s - 1);
  }
  // Variance of the centre's within part per unit sw2, plus the new launch's own draw.
  const double within_factor = 1 + sum_inv_sizes / (s * s);

  if (c.sessions < std::max<std::size_t>(options.min_sessions, 2)) {
    c.within_var = c.ms_within;
    c.between_var = options.allowance * options.allowance;
    const double measured = c.ms_within * within_factor;
    c.predictive_var = measured + c.between_var;
    // Satterthwaite with the allowance as a known constant (infinite df): only the measured part
    // brings uncertainty, so a small within term no longer inflates t over the whole allowance.
    c.dof = c.within_measured && measured > 0
                ? c.predictive_var * c.predictive_var / (measured * measured / (n - s))
                : 0;
    return c;
  }
  c.between_estimated = true;
  if (!c.within_measured) {
    c.between_var = c.ms_between;
    c.predictive_var = c.ms_between * (1 + 1 / s);
    c.dof = s - 1;
    return c;
  }
  c.within_var = c.ms_within;
  if (c.ms_between <= c.ms_within) {
    c.between_clamped = true;
    c.predictive_var = c.ms_within * within_factor;
    c.dof = n - s;
    return c;
  }
  c.between_var = (c.ms_between - c.ms_within) / c.n0;
  const double a = (1 + 1 / s) / c.n0;
  const double b = within_factor - a;
  c.predictive_var = a * c.ms_between + b * c.ms_within;
  const double ta = a * c.ms_between;
  const double tb = b * c.ms_within;
  c.dof = c.predictive_var * c.predictive_var / (ta * ta / (s - 1) + tb * tb / (n - s));
  return c;
}

}  // namespace fabricgate::stats
