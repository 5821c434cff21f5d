#include "harness/baseline/baseline_status.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "harness/gate/launch_band.hpp"
#include "harness/gate/tolerance.hpp"
#include "harness/stats/statistics.hpp"

namespace fabricgate::baseline {

namespace {

const MetricBaseline& status_metric(const BaselineEntry& e) {
  const verdict::Metric m = gate::metric_from_name(e.metric);
  if (m == verdict::Metric::busbw_GBps && e.busbw_GBps) return *e.busbw_GBps;
  if (m == verdict::Metric::algbw_GBps) return e.algbw_GBps;
  return e.time_us;
}

std::string status_pct(double fraction) { return fmt::format("{:.1f}%", 100 * fraction); }

}  // namespace

std::optional<std::size_t> launches_to_gate(double log_sd, double band_alpha, double max_band,
                                            std::size_t from, std::size_t limit) {
  if (!(log_sd >= 0) || !(max_band > 0) || !(max_band < 1)) return std::nullopt;
  const double target = -std::log(1 - max_band);  // h(n) <= max_band in log space
  for (std::size_t n = std::max<std::size_t>(from, 2); n <= limit; ++n) {
    const double dn = static_cast<double>(n);
    if (stats::student_t_quantile(1 - band_alpha, dn - 1) * log_sd * std::sqrt(1 + 1 / dn) <=
        target)
      return n;
  }
  return std::nullopt;
}

BaselineStatus baseline_status(const Baseline& baseline) {
  BaselineStatus s;
  s.sittings = baseline.sessions.size();
  s.source = baseline.source;
  s.platform = baseline.platform;
  s.policy = baseline.policy;
  const TolerancePolicy& p = baseline.policy;
  const auto min_runs = static_cast<std::size_t>(std::max(p.min_runs, 2));
  std::vector<std::size_t> needed;  // launches_to_gate of the NOISY keys that have one
  for (const auto& [key, entry] : baseline.entries) {
    const gate::LaunchBand band = gate::launch_band(p, entry, status_metric(entry));
    KeyStatus k;
    k.key = key;
    k.size_class = entry.tolerance ? "key" : size_class_for(p, entry.bytes).name;
    k.launches = band.launches;
    k.missing_launches = band.launches < min_runs ? min_runs - band.launches : 0;
    k.log_sd = band.log_sd;
    k.band = band.half_width;
    k.floor = band.floor;
    k.mde = band.tolerance;
    k.calibrated = band.calibrated;
    k.noisy = band.noisy;
    k.between_unmeasured = band.between_unmeasured;
    s.unmeasured += k.between_unmeasured ? 1 : 0;
    if (k.noisy) {
      ++s.noisy;
      // A calibrated band has no spread of its own here: the run medians' spread stands in.
      const double sd =
          k.calibrated
              ? gate::prediction_band(status_metric(entry).run_medians, p.band_alpha).log_sd
              : k.log_sd;
      k.launches_to_gate = launches_to_gate(sd, p.band_alpha, p.max_band, k.launches + 1);
      if (k.launches_to_gate) {
        needed.push_back(*k.launches_to_gate);
      } else {
        ++s.never_gateable;
      }
    }
    if (k.missing_launches > 0) ++s.too_few;
    if (!k.noisy && !k.between_unmeasured && k.missing_launches == 0) ++s.gateable;
    s.keys.push_back(std::move(k));
  }
  if (!needed.empty() && needed.size() * 2 >= s.noisy) {
    std::sort(needed.begin(), needed.end());
    // The value at which half of all NOISY keys (not only those with a number) are covered.
    const std::size_t half = (s.noisy + 1) / 2;
    s.launches_for_most_noisy = needed[std::min(needed.size(), half) - 1];
  }
  for (const SizeClass& c : p.size_classes) {
    SizeClassSummary sum;
    sum.name = c.name;
    std::vector<double> mdes;
    for (const KeyStatus& k : s.keys) {
      if (k.size_class != c.name) continue;
      ++sum.keys;
      if (k.noisy) {
        ++sum.noisy;
      } else if (k.missing_launches == 0) {
        mdes.push_back(k.mde);
      }
    }
    if (sum.keys == 0) continue;
    sum.median_mde = stats::median(mdes);
    sum.max_mde = mdes.empty() ? 0 : *std::max_element(mdes.begin(), mdes.end());
    s.classes.push_back(sum);
  }
  return s;
}

namespace {

// The keys a baseline of too few sittings leaves ungated, and why (status and create say it).
std::string unmeasured_text(const BaselineStatus& s) {
  return fmt::format(
      "{} key(s) not gated: between-sitting noise unmeasured (launches from {} sitting(s), fewer "
      "than min_sessions {}; a sitting is launches less than {} minutes apart)",
      s.unmeasured, s.sittings, s.policy.min_sessions, kSittingGapMinutes);
}

}  // namespace

std::string render_baseline_status(const BaselineStatus& s, bool all_keys, bool list_keys) {
  std::string out = fmt::format(
      "baseline {} ({}): {} keys, {} gateable, {} NOISY (band wider than max_band {}), {} with "
      "fewer than min_runs {} launches\n",
      s.source, s.platform, s.keys.size(), s.gateable, s.noisy, status_pct(s.policy.max_band),
      s.too_few, s.policy.min_runs);
  if (s.unmeasured > 0)
    out += unmeasured_text(s) +
           ": record launches in other sittings and `baseline grow` or "
           "`update`\n";
  if (s.noisy > 0) {
    out += s.launches_for_most_noisy
               ? fmt::format(
                     "with {} launches per key at least half of the NOISY keys would be "
                     "gateable, if the launch-to-launch spread stays as measured\n",
                     *s.launches_for_most_noisy)
               : std::string(
                     "more launches alone cannot make most NOISY keys gateable: their "
                     "launch-to-launch spread is wider than max_band allows\n");
    if (s.never_gateable > 0)
      out += fmt::format("{} NOISY key(s) cannot be gated with any number of launches\n",
                         s.never_gateable);
  }
  out +=
      "\nwhat it can detect now (minimum detectable effect: the smallest loss that fails at "
      "least half the time, over gateable keys):\n";
  out += fmt::format("  {:<10} {:>5} {:>6} {:>11} {:>8}\n", "class", "keys", "NOISY", "median MDE",
                     "max MDE");
  for (const SizeClassSummary& c : s.classes) {
    const bool none = c.keys == c.noisy;
    out += fmt::format("  {:<10} {:>5} {:>6} {:>11} {:>8}\n", c.name, c.keys, c.noisy,
                       none ? "-" : status_pct(c.median_mde), none ? "-" : status_pct(c.max_mde));
  }
  if (!list_keys) return out;
  std::size_t listed = 0;
  std::string rows;
  for (const KeyStatus& k : s.keys) {
    const bool short_of_launches = k.missing_launches > 0;
    if (!all_keys && !k.noisy && !k.between_unmeasured && !short_of_launches) continue;
    ++listed;
    std::string what;
    if (short_of_launches)
      what = fmt::format("{} launch(es) short of min_runs", k.missing_launches);
    else if (k.between_unmeasured)
      what = "not gated: between-sitting noise unmeasured";
    else if (k.noisy && k.calibrated)
      // A calibrated band also holds the A/A launches' offset from the centre, which more
      // baseline launches do not shrink: the number is for the baseline's own spread only.
      what = k.launches_to_gate
                 ? fmt::format(
                       "NOISY by its calibrated band (recalibrate); at the baseline "
                       "launches' spread {} launches would gate it",
                       *k.launches_to_gate)
                 : std::string(
                       "NOISY by its calibrated band; the baseline launches' spread is "
                       "too wide for any launch count");
    else if (k.noisy && k.launches_to_gate)
      what = fmt::format("NOISY: {} launches would gate it", *k.launches_to_gate);
    else if (k.noisy)
      what = "NOISY: spread too wide for any launch count";
    else
      what = "gateable";
    rows += fmt::format("  {}  launches {}  spread {}  band {}  MDE {}{}  {}\n", k.key, k.launches,
                        status_pct(std::expm1(k.log_sd)), status_pct(k.band), status_pct(k.mde),
                        k.calibrated ? " (calibrated)" : "", what);
  }
  if (listed > 0)
    out += all_keys ? "\nevery key:\n" + rows : "\nkeys that gate nothing now:\n" + rows;
  return out;
}

std::string baseline_gateability_warning(const BaselineStatus& s) {
  const std::size_t ungated = s.keys.size() - s.gateable;
  if (s.keys.empty() || ungated * 2 <= s.keys.size()) return "";
  std::string w = fmt::format(
      "warning: this baseline gates only {} of {} keys: {} NOISY (launch-to-launch band wider "
      "than max_band {}), {} with fewer than min_runs {} launches. ",
      s.gateable, s.keys.size(), s.noisy, status_pct(s.policy.max_band), s.too_few,
      s.policy.min_runs);
  if (s.unmeasured > 0) w += unmeasured_text(s) + ": record launches in other sittings first. ";
  if (s.launches_for_most_noisy) {
    w += fmt::format("With {} launches per key at least half of the NOISY keys would be gateable; ",
                     *s.launches_for_most_noisy);
  } else if (s.noisy > 0) {
    w += "More launches alone cannot make most NOISY keys gateable; ";
  }
  return w + "`fabricgate baseline status --baseline " + s.source + "` lists each key.";
}

}  // namespace fabricgate::baseline
