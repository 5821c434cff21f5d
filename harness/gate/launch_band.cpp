#include "harness/gate/launch_band.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "harness/stats/statistics.hpp"
#include "harness/stats/variance_components.hpp"

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
  b.t_quantile = stats::student_t_quantile(1 - band_alpha, n - 1);
  b.half_width =
      1 - std::exp(-(std::max(0.0, mean) + b.t_quantile * b.log_sd * std::sqrt(1 + 1 / n)));
  return b;
}

namespace {

struct SessionGroups {
  std::vector<std::string> ids;  // first-seen order
  std::vector<std::vector<double>> logs;
};

// Log launch medians by session; one group when the metric names no sessions (/1, /2 files).
SessionGroups group_by_session(const MetricBaseline& metric) {
  SessionGroups g;
  const bool tagged = metric.run_sessions.size() == metric.run_medians.size();
  for (std::size_t i = 0; i < metric.run_medians.size(); ++i) {
    const double x = metric.run_medians[i];
    if (!(x > 0 && std::isfinite(x))) continue;
    const std::string id = tagged ? metric.run_sessions[i] : std::string();
    const auto it = std::find(g.ids.begin(), g.ids.end(), id);
    if (it == g.ids.end()) {
      g.ids.push_back(id);
      g.logs.push_back({std::log(x)});
    } else {
      g.logs[static_cast<std::size_t>(it - g.ids.begin())].push_back(std::log(x));
    }
  }
  return g;
}

// The file names each launch's sitting (/3 files; /1 and /2 files name none).
bool names_sittings(const MetricBaseline& metric) {
  return !metric.run_medians.empty() && metric.run_sessions.size() == metric.run_medians.size();
}

std::string host_of(const std::map<std::string, std::string>& session_hosts,
                    const std::string& session) {
  const auto it = session_hosts.find(session);
  return it == session_hosts.end() ? std::string() : it->second;
}

}  // namespace

LaunchBand session_band(const TolerancePolicy& policy, const BaselineEntry& entry,
                        const MetricBaseline& metric, const std::string& judged_host,
                        const std::map<std::string, std::string>& session_hosts) {
  SessionGroups all = group_by_session(metric);
  LaunchBand b;
  std::vector<std::vector<double>> used;
  std::vector<std::string> used_ids;
  if (!judged_host.empty()) {
    for (std::size_t i = 0; i < all.ids.size(); ++i) {
      if (!all.ids[i].empty() && host_of(session_hosts, all.ids[i]) == judged_host) {
        used.push_back(all.logs[i]);
        used_ids.push_back(all.ids[i]);
      }
    }
  }
  if (!judged_host.empty() && used.size() >= static_cast<std::size_t>(policy.host_min_sessions)) {
    b.centre_scope = "host";
    b.host = judged_host;
  } else {
    used = std::move(all.logs);
    used_ids = std::move(all.ids);
  }
  const stats::VarianceComponents vc = stats::variance_components(
      used, stats::ComponentOptions{static_cast<std::size_t>(std::max(policy.min_sessions, 2)),
                                    policy.session_allowance});
  b.launches = vc.values;
  b.sessions = vc.sessions;
  std::set<std::string> hosts;
  for (const std::string& id : used_ids) {
    if (const std::string h = host_of(session_hosts, id); !h.empty()) hosts.insert(h);
  }
  b.hosts = hosts.size();
  b.within_sd = std::sqrt(vc.within_var);
  b.between_sd = std::sqrt(vc.between_var);
  b.between_estimated = vc.between_estimated;
  b.dof = vc.dof;
  if (vc.values > 0) {
    b.centre = std::exp(vc.centre);
    b.log_sd = std::sqrt(vc.within_var + vc.between_var);
    // dof 0: nothing measured but the allowance, a known constant: the normal quantile.
    b.t_quantile =
        stats::student_t_quantile(1 - policy.band_alpha, vc.dof > 0 ? std::min(vc.dof, 1e5) : 1e5);
    if (vc.values >= 2 || vc.predictive_var > 0)
      b.half_width = 1 - std::exp(-b.t_quantile * std::sqrt(vc.predictive_var));
  }
  if (entry.band && entry.band->launches >= 2) {
    b.half_width = entry.band->half_width;
    b.launches = static_cast<std::size_t>(entry.band->launches);
    b.calibrated = true;
  }
  b.floor = entry.tolerance ? *entry.tolerance : size_class_for(policy, entry.bytes).tolerance;
  b.tolerance = std::max(b.floor, b.half_width);
  b.noisy = b.half_width > policy.max_band;
  b.between_unmeasured = names_sittings(metric) && !vc.between_estimated && !b.calibrated &&
                         policy.session_allowance > 0;
  return b;
}

LaunchBand host_level_band(const TolerancePolicy& policy, const BaselineEntry& entry,
                           const MetricBaseline& fleet, std::span<const double> values,
                           std::span<const std::string> sessions, const std::string& host) {
  const stats::ComponentOptions options{static_cast<std::size_t>(std::max(policy.min_sessions, 2)),
                                        policy.session_allowance};
  const SessionGroups fleet_groups = group_by_session(fleet);
  const stats::VarianceComponents f = stats::variance_components(fleet_groups.logs, options);
  std::vector<std::string> ids;
  std::vector<std::vector<double>> logs;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double x = values[i];
    if (!(x > 0 && std::isfinite(x))) continue;
    const std::string id = i < sessions.size() ? sessions[i] : std::string();
    const auto it = id.empty() ? ids.end() : std::find(ids.begin(), ids.end(), id);
    if (it == ids.end()) {
      ids.push_back(id);
      logs.push_back({std::log(x)});
    } else {
      logs[static_cast<std::size_t>(it - ids.begin())].push_back(std::log(x));
    }
  }
  // The host's own components count only where they are measured (never the allowance: that
  // stands in for what nobody measured, and the fleet's terms below already carry it).
  const stats::VarianceComponents h =
      stats::variance_components(logs, stats::ComponentOptions{options.min_sessions, 0});
  LaunchBand b;
  b.centre_scope = "host";
  b.host = host;
  b.launches = h.values;
  b.sessions = h.sessions;
  b.hosts = 1;
  const double within = std::max(f.within_var, h.within_measured ? h.within_var : 0.0);
  // With one launch per session the host's "between" term is its whole launch-to-launch variance
  // (variance_components.hpp): only what exceeds the within term counts as between.
  const double host_between = !h.between_estimated ? 0.0
                              : h.within_measured  ? h.between_var
                                                   : std::max(0.0, h.between_var - within);
  const double between = std::max(f.between_var, host_between);
  b.within_sd = std::sqrt(within);
  b.between_sd = std::sqrt(between);
  b.between_estimated = f.between_estimated;
  // The between-sitting term is the fleet's: unmeasured there, unmeasured here (the host's own
  // launches in the store are not sittings the baseline's reviewers saw).
  b.between_unmeasured = names_sittings(fleet) && !f.between_estimated &&
                         !(entry.band && entry.band->launches >= 2) && policy.session_allowance > 0;
  b.dof = f.dof;
  if (h.sessions > 0) {
    double inverse_sizes = 0;
    for (const auto& g : logs) inverse_sizes += 1.0 / static_cast<double>(g.size());
    const double s = static_cast<double>(h.sessions);
    const double v = between * (1 + 1 / s) + within * (1 + inverse_sizes / (s * s));
    b.centre = std::exp(h.centre);
    b.log_sd = std::sqrt(within + between);
    b.t_quantile =
        stats::student_t_quantile(1 - policy.band_alpha, f.dof > 0 ? std::min(f.dof, 1e5) : 1e5);
    if (v > 0) b.half_width = 1 - std::exp(-b.t_quantile * std::sqrt(v));
  }
  b.floor = entry.tolerance ? *entry.tolerance : size_class_for(policy, entry.bytes).tolerance;
  b.tolerance = std::max(b.floor, b.half_width);
  b.noisy = b.half_width > policy.max_band;
  return b;
}

LaunchBand launch_band(const TolerancePolicy& policy, const BaselineEntry& entry,
                       const MetricBaseline& metric) {
  return session_band(policy, entry, metric, "");
}

double launch_instability(std::span<const double> repetitions) {
  if (repetitions.size() < 3) return 0;
  return stats::robust_relative_spread(repetitions);
}

}  // namespace fabricgate::gate
