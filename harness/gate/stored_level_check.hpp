#pragma once
// Is a host level the results store taught plausible for this platform? The store is written by
// every run on the runner, and a row nobody can vouch for (a planted or copied store, a level
// recorded while the host ran faster than any host of the fleet ever has) would otherwise judge
// the next launch: a level twice as fast as the fleet fails a quiet host on every key. A level
// further from the fleet centre than the fleet's widest host (per key, from the baseline's
// sessions and the hosts that ran them) plus the fleet band is a finding, not a level
// (issue 50; harness/gate/README.md "Two questions").
#include <map>
#include <optional>
#include <string>

#include "harness/gate/launch_band.hpp"
#include "harness/model/baseline.hpp"

namespace fabricgate::gate {

// Fewer hosts than this in the baseline leave the widest host offset unmeasured (one or two hosts
// say nothing of how far a healthy host may sit from the centre): no level is set aside.
inline constexpr std::size_t kMinHostsForOffset = 3;

struct FleetHostSpread {
  std::size_t hosts = 0;  // distinct hosts among the metric's launches
  double widest = 0;      // largest |log(host centre / fleet centre)| among them
};

// Per host, the mean of its launches' log medians; the widest offset of those from `fleet_centre`.
FleetHostSpread fleet_host_spread(const MetricBaseline& metric, double fleet_centre,
                                  const std::map<std::string, std::string>& session_hosts);

// Why `level` (a centre the store taught, or one stored launch, in the metric's unit) is not a
// level for this host, in words (host named, how much better or worse than the fleet centre);
// nullopt when it is plausible, or when the fleet cannot tell (fewer than kMinHostsForOffset
// hosts, no band).
std::optional<std::string> implausible_stored_level(
    double level, const LaunchBand& fleet, const MetricBaseline& metric,
    const std::map<std::string, std::string>& session_hosts, const std::string& host,
    bool higher_is_better);

}  // namespace fabricgate::gate
