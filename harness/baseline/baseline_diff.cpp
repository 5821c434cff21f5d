#include "harness/baseline/baseline_diff.hpp"

#include <fmt/format.h>

#include "harness/gate/launch_band.hpp"
#include "harness/gate/route_checks.hpp"
#include "harness/verdict/units_text.hpp"

namespace fabricgate::baseline {

namespace {

const MetricBaseline& judged(const BaselineEntry& e) {
  if (e.metric == "busbw_GBps" && e.busbw_GBps) return *e.busbw_GBps;
  if (e.metric == "algbw_GBps") return e.algbw_GBps;
  return e.time_us;
}

void route_diff(const BaselineEntry& b, const BaselineEntry& a, std::vector<std::string>& out) {
  auto add = [&](const std::string& what, const std::string& x, const std::string& y) {
    if (x != y) out.push_back(a.key + ": " + what + " " + x + " -> " + y);
  };
  const ExpectedChoice none;
  add("algo", gate::join_set(b.choice.value_or(none).algo),
      gate::join_set(a.choice.value_or(none).algo));
  add("proto", gate::join_set(b.choice.value_or(none).proto),
      gate::join_set(a.choice.value_or(none).proto));
  add("network", b.transport.network, a.transport.network);
  add("transports", gate::join_set(b.transport.transports), gate::join_set(a.transport.transports));
  add("gdrdma", b.transport.gdrdma ? "yes" : "no", a.transport.gdrdma ? "yes" : "no");
  add("provider", b.transport.provider, a.transport.provider);
  add("metric", b.metric, a.metric);
}

}  // namespace

BaselineDiff diff_baselines(const Baseline* before, const Baseline& after) {
  BaselineDiff d;
  d.total_keys = after.entries.size();
  if (!before) {
    for (const auto& [key, e] : after.entries) d.added.push_back(key);
    return d;
  }
  for (const auto& [key, e] : after.entries) {
    auto it = before->entries.find(key);
    if (it == before->entries.end()) {
      d.added.push_back(key);
      continue;
    }
    const MetricBaseline& b = judged(it->second);
    const MetricBaseline& a = judged(e);
    if (b.median != a.median || it->second.metric != e.metric) {
      d.medians.push_back(
          {key, e.metric, b.median, a.median, b.median > 0 ? (a.median - b.median) / b.median : 0});
    }
    route_diff(it->second, e, d.route_changes);
    const gate::LaunchBand band_before = gate::launch_band(before->policy, it->second, b);
    const gate::LaunchBand band_after = gate::launch_band(after.policy, e, a);
    if (band_before.half_width != band_after.half_width ||
        band_before.launches != band_after.launches) {
      d.bands.push_back({key, band_before.half_width, band_after.half_width, band_before.launches,
                         band_after.launches, band_after.floor, band_after.calibrated,
                         band_after.noisy});
    }
  }
  for (const auto& [key, e] : before->entries) {
    if (!after.entries.count(key)) d.removed.push_back(key);
  }
  if (before->identity != after.identity) {
    d.other.push_back("identity " + before->identity.dump() + " -> " + after.identity.dump());
  }
  if (!(before->policy == after.policy)) {
    d.other.push_back("tolerance policy changed");
  }
  return d;
}

std::string render_baseline_diff(const BaselineDiff& d, std::size_t max_lines) {
  std::string out;
  if (d.removed.empty() && d.medians.empty() && d.bands.empty() && d.route_changes.empty() &&
      d.other.empty() && d.added.size() == d.total_keys) {
    return "new baseline: " + std::to_string(d.total_keys) + " keys\n";
  }
  auto section = [&](const std::string& title, std::size_t n, auto line_at) {
    if (n == 0) return;
    out += title + " (" + std::to_string(n) + "):\n";
    for (std::size_t i = 0; i < n; ++i) {
      if (max_lines > 0 && i == max_lines) {
        out += "  ... " + std::to_string(n - i) + " more\n";
        break;
      }
      out += "  " + line_at(i) + "\n";
    }
  };
  section("changed medians", d.medians.size(), [&](std::size_t i) {
    const MedianChange& m = d.medians[i];
    const bool is_time = m.metric == "time_us";
    return m.key + "  " + m.metric + " " + verdict::format_metric(m.before, is_time) + " -> " +
           verdict::format_metric(m.after, is_time) + " (" + verdict::format_percent(m.change) +
           ")";
  });
  section("moved bands", d.bands.size(), [&](std::size_t i) {
    const BandChange& m = d.bands[i];
    return m.key + fmt::format(
                       "  band {:.1f}% ({} launches) -> {:.1f}% ({} launches{}), floor "
                       "{:.1f}%{}",
                       m.before * 100, m.launches_before, m.after * 100, m.launches_after,
                       m.calibrated ? ", calibrated A/A" : "", m.floor * 100,
                       m.noisy_after ? ": NOISY (wider than max_band, informational)" : "");
  });
  section("changed expectations", d.route_changes.size(),
          [&](std::size_t i) { return d.route_changes[i]; });
  section("added keys", d.added.size(), [&](std::size_t i) { return "+ " + d.added[i]; });
  section("removed keys", d.removed.size(), [&](std::size_t i) { return "- " + d.removed[i]; });
  section("other changes", d.other.size(), [&](std::size_t i) { return d.other[i]; });
  if (out.empty()) out = "no changes (" + std::to_string(d.total_keys) + " keys)\n";
  return out;
}

}  // namespace fabricgate::baseline
