#include "harness/gate/jitter_judge.hpp"

#include <fmt/format.h>

#include "harness/gate/launch_band.hpp"
#include "harness/stats/statistics.hpp"

namespace fabricgate::gate {

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
