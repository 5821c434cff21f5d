#include "harness/gate/stored_level_check.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace fabricgate::gate {

FleetHostSpread fleet_host_spread(const MetricBaseline& metric, double fleet_centre,
                                  const std::map<std::string, std::string>& session_hosts) {
  FleetHostSpread out;
  if (!(fleet_centre > 0) || metric.run_sessions.size() != metric.run_medians.size()) return out;
  std::map<std::string, std::pair<double, std::size_t>> by_host;  // sum of logs, count
  for (std::size_t i = 0; i < metric.run_medians.size(); ++i) {
    const auto it = session_hosts.find(metric.run_sessions[i]);
    if (it == session_hosts.end() || it->second.empty() || !(metric.run_medians[i] > 0)) continue;
    auto& [sum, n] = by_host[it->second];
    sum += std::log(metric.run_medians[i]);
    ++n;
  }
  out.hosts = by_host.size();
  const double centre = std::log(fleet_centre);
  for (const auto& [host, sum_n] : by_host) {
    const double offset = sum_n.first / static_cast<double>(sum_n.second) - centre;
    out.widest = std::max(out.widest, std::abs(offset));
  }
  return out;
}

std::optional<std::string> implausible_stored_level(
    double level, const LaunchBand& fleet, const MetricBaseline& metric,
    const std::map<std::string, std::string>& session_hosts, const std::string& host,
    bool higher_is_better) {
  // A NOISY fleet band still bounds where a launch of the fleet falls: only wider.
  if (!(level > 0) || !(fleet.centre > 0) || !(fleet.tolerance < 1)) return std::nullopt;
  const FleetHostSpread spread = fleet_host_spread(metric, fleet.centre, session_hosts);
  if (spread.hosts < kMinHostsForOffset) return std::nullopt;
  // The fleet band on top of the widest host: a healthy host a little beyond the hosts the
  // baseline saw, measured by a few launches, is still a level.
  const double band = -std::log(1 - fleet.tolerance);
  const double offset = std::log(level / fleet.centre);
  if (std::abs(offset) <= spread.widest + band) return std::nullopt;
  const double better = higher_is_better ? offset : -offset;
  return fmt::format(
      "host {}'s stored level is {:.1f} % {} than the fleet centre, beyond the widest of the "
      "baseline's {} hosts ({:.1f} %) and the fleet band ({:.1f} %): a finding, not its level "
      "(check the results store's rows for this host)",
      host, std::abs(std::exp(better) - 1) * 100, better > 0 ? "better" : "worse", spread.hosts,
      (std::exp(spread.widest) - 1) * 100, fleet.tolerance * 100);
}

}  // namespace fabricgate::gate
