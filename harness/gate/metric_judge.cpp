#include "harness/gate/metric_judge.hpp"

#include <cmath>
#include <set>
#include <span>
#include <vector>

#include <fmt/format.h>

#include "harness/gate/host_history.hpp"
#include "harness/gate/launch_band.hpp"
#include "harness/gate/stored_level_check.hpp"
#include "harness/gate/tolerance.hpp"
#include "harness/stats/statistics.hpp"
#include "harness/verdict/finding_ids.hpp"
#include "harness/verdict/units_text.hpp"

namespace fabricgate::gate {

namespace {

std::span<const double> current_samples(const BenchmarkResult& r, verdict::Metric m) {
  switch (m) {
    case verdict::Metric::time_us: return r.samples.time_us;
    case verdict::Metric::algbw_GBps: return r.samples.algbw_GBps;
    case verdict::Metric::busbw_GBps: return r.samples.busbw_GBps;
  }
  return {};
}

double current_median(const BenchmarkResult& r, verdict::Metric m) {
  const auto s = current_samples(r, m);
  if (!s.empty()) return stats::median(s);
  switch (m) {
    case verdict::Metric::time_us: return r.time_us;
    case verdict::Metric::algbw_GBps: return r.algbw_GBps;
    case verdict::Metric::busbw_GBps: return r.busbw_GBps.value_or(0);
  }
  return 0;
}

const MetricBaseline& baseline_metric(const BaselineEntry& e, verdict::Metric m) {
  if (m == verdict::Metric::busbw_GBps && e.busbw_GBps) return *e.busbw_GBps;
  if (m == verdict::Metric::algbw_GBps) return e.algbw_GBps;
  return e.time_us;
}

bool usable(const BenchmarkResult& now, const BaselineEntry& base, verdict::Metric m) {
  if (m == verdict::Metric::busbw_GBps && (!now.busbw_GBps || !base.busbw_GBps)) return false;
  return current_median(now, m) > 0 && baseline_metric(base, m).median > 0;
}

// This host's launches of the key: its sessions in the baseline, then its launches in the store
// that the baseline does not already hold (one session id once).
struct HostLaunches {
  std::vector<double> values;
  std::vector<std::string> sessions;
  std::size_t from_store = 0;
};

// A host inside the fleet whose own band is NOISY is judged against the fleet: a few noisy
// launches of its own (or a slow slide they took in) must not gate fewer keys than the fleet file
// does. A band of its own that is merely wider than the fleet's stays: a host whose level sits
// inside the fleet band but off its centre has ordinary launches beyond the fleet's edge (an
// unseen H200 8 % under the fleet on one key failed an A/A launch at -13.6 % against the fleet's
// 13.5 % band, results/cpu-amd-epyc-c2/host-level-s13/). A host outside the band keeps its own.
bool fleet_band_serves_host(const LaunchBand& fleet, const LaunchBand& own) {
  if (fleet.noisy || !(fleet.centre > 0) || !(own.centre > 0) || fleet.tolerance >= 1) return false;
  const bool inside = own.centre >= fleet.centre * (1 - fleet.tolerance) &&
                      own.centre <= fleet.centre / (1 - fleet.tolerance);
  return inside && own.noisy;
}

HostLaunches host_launches(const std::string& key, const MetricBaseline& reference,
                           verdict::Metric metric, const JudgedHost& host,
                           const HostHistory* store_launches) {
  HostLaunches out;
  std::set<std::string> baseline_sessions;
  if (host.session_hosts && reference.run_sessions.size() == reference.run_medians.size()) {
    for (std::size_t i = 0; i < reference.run_medians.size(); ++i) {
      const auto it = host.session_hosts->find(reference.run_sessions[i]);
      if (it == host.session_hosts->end() || it->second != host.host) continue;
      out.values.push_back(reference.run_medians[i]);
      out.sessions.push_back(reference.run_sessions[i]);
      baseline_sessions.insert(reference.run_sessions[i]);
    }
  }
  if (store_launches) {
    if (const auto* launches = store_launches->of(key, metric)) {
      for (const HostLaunch& l : *launches) {
        if (!l.session_id.empty() && baseline_sessions.count(l.session_id)) continue;
        out.values.push_back(l.value);
        out.sessions.push_back(l.session_id.empty() ? "run:" + l.run_id : l.session_id);
        ++out.from_store;
      }
    }
  }
  return out;
}

// Which centre and band judged, in words (every report shows it with the key's judgement).
std::string band_scope_text(const LaunchBand& b, std::size_t from_store = 0) {
  if (b.centre_scope == "host" && from_store > 0) {
    return fmt::format(
        "host {}'s own level from {} launch(es) in {} session(s) ({} from the store), fleet "
        "noise: between-session SD {:.2f} %, within {:.2f} %",
        b.host, b.launches, b.sessions, from_store, b.between_sd * 100, b.within_sd * 100);
  }
  std::string text = b.centre_scope == "host" ? "host " + b.host + "'s own " : "platform ";
  text += "centre from " + std::to_string(b.sessions) + " session(s)";
  if (b.hosts > 0) text += " on " + std::to_string(b.hosts) + " host(s)";
  if (b.calibrated) return text + ", calibrated band";
  if (b.between_estimated) {
    return text + fmt::format("; between-session SD {:.2f} %, within {:.2f} %", b.between_sd * 100,
                              b.within_sd * 100);
  }
  return text + fmt::format(
                    "; between-session term not estimated (fewer sessions than min_sessions): "
                    "allowance {:.2f} %, within {:.2f} %",
                    b.between_sd * 100, b.within_sd * 100);
}

// The judgement's centre, band and limits from `band` (the limits are what every report draws).
void set_band(verdict::MetricJudgement& j, const LaunchBand& band, const BenchmarkResult& now,
              const MetricBaseline& reference) {
  j.between_sd = band.between_sd;
  j.static_tolerance = band.floor;
  j.baseline_spread = band.log_sd;
  j.band = band.half_width;
  j.launches = band.launches;
  j.band_calibrated = band.calibrated;
  j.noisy = band.noisy;
  j.between_unmeasured = band.between_unmeasured;
  j.tolerance = band.tolerance;
  // The centre is the geometric mean of launch medians (the interval is built in log space); an
  // old baseline without launch medians falls back to its stored median.
  j.baseline_median = band.centre > 0 ? band.centre : reference.median;
  j.current_median = current_median(now, j.metric);
  j.lower_limit = j.baseline_median * (1 - j.tolerance);
  j.upper_limit = j.tolerance < 1 ? j.baseline_median / (1 - j.tolerance) : 0;
  j.performance_ratio = 1;
  if (j.baseline_median > 0 && j.current_median > 0) {
    j.performance_ratio = verdict::metric_higher_is_better(j.metric)
                              ? j.current_median / j.baseline_median
                              : j.baseline_median / j.current_median;
  }
}

// The host's rolling level (its newest accepted launches) moves with every launch that passes, so
// a slow slide, or a step that a few launches absorbed, would become the level. The host's first
// accepted level (its baseline sessions and oldest launches in the store, by the same join rule;
// the fleet's band when that level sits inside it) stays: a key that the rolling level passes but
// the first level fails is a REGRESSION, judged and reported against that first level, until a
// baseline update makes a new one (harness/gate/README.md "Two questions").
// A host whose newer launches all failed has no rolling level left: its first level judges it
// (a key must not turn into RUNNER-DIFFERS through its own failures).
void judge_from_anchor(verdict::MetricJudgement& j, const BenchmarkResult& now,
                       const BaselineEntry& base, const TolerancePolicy& policy,
                       const JudgedHost& host) {
  const bool rolling = j.reference == verdict::reference::host_history;
  if (j.launch_cv > policy.unstable_cv) return;  // UNSTABLE either way
  if (rolling && !j.noisy &&
      verdict_against_limits(j, j.current_median) == verdict::Verdict::regression)
    return;
  const MetricBaseline& reference = baseline_metric(base, j.metric);
  HostLaunches first = host_launches(now.key, reference, j.metric, host, host.anchor);
  const auto min_runs = static_cast<std::size_t>(std::max(policy.min_runs, 2));
  if (first.values.size() < min_runs) return;
  // The first level is the host's first min_runs accepted launches, the fewest that make a level:
  // a slide that began with the host's life must not become its first level too (with the oldest
  // 20, a -2 %/run slide from the first run was caught from -15 %; with the first 3, from -11 %,
  // results/cpu-amd-epyc-c2/host-level-s13/). Their band carries the centre's own uncertainty.
  const std::size_t from_baseline = first.values.size() - first.from_store;
  first.values.resize(min_runs);
  first.sessions.resize(min_runs);
  first.from_store = min_runs > from_baseline ? min_runs - from_baseline : 0;
  const LaunchBand fleet = launch_band(policy, base, reference);
  LaunchBand anchor =
      host_level_band(policy, base, reference, first.values, first.sessions, host.host);
  if (first.from_store > 0 && host.session_hosts &&
      implausible_stored_level(anchor.centre, fleet, reference, *host.session_hosts, host.host,
                               verdict::metric_higher_is_better(j.metric)))
    return;  // a first level no host of the fleet could have: not a level to hold the host to
  // A NOISY first level inside the fleet gives way to the fleet's band, by the rolling level's
  // rule; either way a known host's loss is REGRESSION, not RUNNER-DIFFERS.
  const bool fleet_judges = fleet_band_serves_host(fleet, anchor);
  if (fleet_judges) anchor = fleet;
  if (anchor.noisy) return;
  verdict::MetricJudgement anchored = j;
  set_band(anchored, anchor, now, reference);
  if (rolling &&
      verdict_against_limits(anchored, anchored.current_median) != verdict::Verdict::regression)
    return;
  double moved = 0;  // + better, - worse, like every change figure
  if (j.baseline_median > 0 && anchored.baseline_median > 0) {
    moved = (verdict::metric_higher_is_better(j.metric)
                 ? j.baseline_median / anchored.baseline_median
                 : anchored.baseline_median / j.baseline_median) -
            1;
  }
  anchored.reference = verdict::reference::host_anchor;
  anchored.band_scope =
      (fleet_judges
           ? fmt::format("host {}'s first level ({} launches, NOISY) lay inside the fleet, whose "
                         "band judges it: ",
                         host.host, first.values.size())
           : fmt::format("host {}'s first level ({} launches, {} from the store): ", host.host,
                         first.values.size(), first.from_store)) +
      band_scope_text(anchor, first.from_store) +
      (rolling ? fmt::format("; its rolling level ({} launches) has moved {:+.1f} % from it",
                             j.launches, moved * 100)
               : std::string("; none of its newer launches joined its level"));
  j = std::move(anchored);
}

}  // namespace

verdict::MetricJudgement judge_metric(const BenchmarkResult& now, const BaselineEntry& base,
                                      const TolerancePolicy& policy, const JudgedHost& host) {
  verdict::MetricJudgement j;
  const SizeClass& size_class = size_class_for(policy, base.bytes);
  j.size_class = size_class.name;
  j.metric = metric_from_name(base.metric);
  j.why_metric = size_class.judged_on_latency ? "latency-bound size (P15)" : "baseline metric";
  if (now.nranks != base.nranks && j.metric != verdict::Metric::time_us) {
    // P04: busbw (and algbw per rank) scale with n; only elapsed time is comparable.
    j.metric = verdict::Metric::time_us;
    j.why_metric = "rank count " + std::to_string(base.nranks) + " -> " +
                   std::to_string(now.nranks) + ": elapsed time, not busbw (P04)";
  } else if (!usable(now, base, j.metric)) {
    j.metric = verdict::Metric::time_us;
    j.why_metric = "bandwidth not reported: elapsed time";
  }
  const MetricBaseline& reference = baseline_metric(base, j.metric);
  LaunchBand band = host.session_hosts
                        ? session_band(policy, base, reference, host.host, *host.session_hosts)
                        : launch_band(policy, base, reference);
  j.reference =
      band.centre_scope == "host" ? verdict::reference::host_baseline : verdict::reference::fleet;
  std::size_t from_store = 0;
  std::string own_note;
  if (j.reference == "fleet" && !host.host.empty() && (host.history || host.session_hosts)) {
    // Earlier launches of this host, in the baseline's sessions or in the store: its own level.
    const HostLaunches mine = host_launches(now.key, reference, j.metric, host, host.history);
    if (mine.values.size() >= static_cast<std::size_t>(std::max(policy.min_runs, 2))) {
      LaunchBand own =
          host_level_band(policy, base, reference, mine.values, mine.sessions, host.host);
      const auto set_aside =
          mine.from_store > 0 && host.session_hosts
              ? implausible_stored_level(own.centre, band, reference, *host.session_hosts,
                                         host.host, verdict::metric_higher_is_better(j.metric))
              : std::nullopt;
      if (set_aside) {
        j.stored_level_set_aside = true;
        own_note = "; " + *set_aside + ", so the fleet judges the key";
      } else if (fleet_band_serves_host(band, own)) {
        // Still a known host: its key is judged for the change, not set aside as RUNNER-DIFFERS.
        j.reference = verdict::reference::fleet_for_host;
        own_note = fmt::format(
            "; host {}'s own band ({:.1f} % from {} launches{}) is wider than the fleet's, which "
            "judges it",
            host.host, own.tolerance * 100, own.launches, own.noisy ? ", NOISY" : "");
      } else {
        band = std::move(own);
        j.reference = mine.from_store > 0 ? verdict::reference::host_history
                                          : verdict::reference::host_baseline;
        from_store = mine.from_store;
      }
    }
  }
  j.band_scope = band_scope_text(band, from_store) + own_note;
  set_band(j, band, now, reference);
  const auto repetitions = current_samples(now, j.metric);
  j.repetitions = repetitions.size();
  j.launch_cv = launch_instability(repetitions);
  // A rolling level set aside leaves the first level to judge, if that one is plausible.
  if (host.anchor &&
      (j.reference == verdict::reference::host_history || j.reference == verdict::reference::fleet))
    judge_from_anchor(j, now, base, policy, host);
  return j;
}

verdict::Verdict verdict_from_judgement(const verdict::MetricJudgement& j,
                                        const TolerancePolicy& policy) {
  if (j.between_unmeasured) return verdict::Verdict::unmeasured;
  // A NOISY band is too wide to gate a small loss, not every loss: a launch beyond even that band
  // (its prediction interval at the same band_alpha) is a REGRESSION, which `run` confirms like
  // any other. Issue 53: under a TCP fall-back NOISY keys were up to 25x slower than the fleet
  // and passed; in the committed A/A sessions no confirmed launch lay beyond a NOISY band.
  if (j.noisy) {
    if (j.launch_cv > policy.unstable_cv)
      return verdict::Verdict::noisy;  // not judgeable either way
    const verdict::Verdict v = verdict_against_limits(j, j.current_median);
    return v == verdict::Verdict::regression ? v : verdict::Verdict::noisy;
  }
  if (j.launch_cv > policy.unstable_cv) return verdict::Verdict::unstable;
  return verdict_against_limits(j, j.current_median);
}

verdict::Verdict verdict_against_limits(const verdict::MetricJudgement& j, double value) {
  // The limits are the band drawn in every report: a value is judged against them and nothing
  // else (symmetric in log space: the upper edge is centre / (1 - tolerance)).
  const bool higher_better = verdict::metric_higher_is_better(j.metric);
  const double worse_edge = higher_better ? j.lower_limit : j.upper_limit;
  const double better_edge = higher_better ? j.upper_limit : j.lower_limit;
  if (!(value > 0) || !(worse_edge > 0)) return verdict::Verdict::pass;
  if (higher_better ? value < worse_edge : value > worse_edge) return verdict::Verdict::regression;
  if (better_edge > 0 && (higher_better ? value > better_edge : value < better_edge))
    return verdict::Verdict::improvement;
  return verdict::Verdict::pass;
}

std::string describe_judgement(const verdict::MetricJudgement& j, std::uint64_t bytes) {
  const double change = (j.performance_ratio - 1) * 100;
  return fmt::format(
      "{}: {} {} -> {} ({:+.1f}% {}, band {:.1f}% from {} launches{}, floor {:.1f}%, "
      "repetitions CV {:.1f}%)",
      verdict::format_bytes(bytes), verdict::metric_name(j.metric),
      verdict::format_metric(j.baseline_median, j.metric == verdict::Metric::time_us),
      verdict::format_metric(j.current_median, j.metric == verdict::Metric::time_us), change,
      change < 0 ? "worse" : "better", j.tolerance * 100, j.launches,
      j.band_calibrated ? ", calibrated" : "", j.static_tolerance * 100, j.launch_cv * 100);
}

std::optional<double> launch_jitter(const BenchmarkResult& r) {
  if (r.samples.time_us.size() < kJitterMinRepetitions) return std::nullopt;
  const double ratio = stats::p99_over_p50(r.samples.time_us);
  if (ratio <= 0) return std::nullopt;
  return ratio;
}

std::optional<verdict::JitterJudgement> judge_jitter(const BenchmarkResult& now,
                                                     const BaselineEntry& base,
                                                     const TolerancePolicy& policy,
                                                     const JudgedHost& host) {
  if (!base.time_jitter) return std::nullopt;
  if (base.time_jitter->run_medians.size() < static_cast<std::size_t>(policy.min_runs))
    return std::nullopt;
  const std::optional<double> ratio = launch_jitter(now);
  if (!ratio) return std::nullopt;
  // A calibrated band belongs to the judged metric, not to the tail: judge the ratio by its own
  // launches.
  BaselineEntry own = base;
  own.band.reset();
  const LaunchBand band = host.session_hosts ? session_band(policy, own, *base.time_jitter,
                                                            host.host, *host.session_hosts)
                                             : launch_band(policy, own, *base.time_jitter);
  verdict::JitterJudgement j;
  j.ratio = *ratio;
  j.centre = band.centre > 0 ? band.centre : base.time_jitter->median;
  j.tolerance = band.tolerance;
  j.limit = band.tolerance < 1 ? j.centre / (1 - band.tolerance) : 0;
  j.launches = band.launches;
  j.noisy = band.noisy;
  j.over = !j.noisy && j.limit > 0 && j.ratio > j.limit;
  return j;
}

std::string describe_jitter(const verdict::JitterJudgement& j) {
  return fmt::format(
      "time p99/p50 {:.3f} {} the limit {:.3f} (baseline's launches: centre {:.3f}, tolerance "
      "{:.1f} %, {} launches){}",
      j.ratio, j.over ? "above" : "within", j.limit, j.centre, j.tolerance * 100, j.launches,
      j.noisy ? "; the baseline's launch-to-launch band is wider than max_band: not judged" : "");
}

}  // namespace fabricgate::gate
