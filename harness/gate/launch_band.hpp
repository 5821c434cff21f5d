#pragma once
// The band a key's next launch must stay inside: a prediction interval for ONE new launch median
// given the baseline's n launch medians. The launch is the statistical unit: a process places its
// buffers, picks clocks and (NCCL) its per-process levels once, so repetitions inside a launch
// are not independent draws of what the next launch will measure.
//
// Model: log launch medians are normal, with a session-level and a launch-level term
// (session_band below; harness/gate/README.md "Sessions and hosts"). prediction_band is the
// one-session special case: h = t_{n-1, 1-band_alpha} * s * sqrt(1 + 1/n); relative band
// = 1 - exp(-h). The size class's
// (or key's) static tolerance is a floor; a band wider than policy max_band makes the key NOISY
// (informational, never failing). harness/gate/README.md says why t-based and not [min, max].
#include <cstddef>
#include <map>
#include <span>
#include <string>

#include "harness/model/baseline.hpp"

namespace fabricgate::gate {

struct LaunchBand {
  std::size_t launches = 0;  // n behind the half-width (baseline run_medians, or calibration)
  double centre = 0;         // geometric mean of the baseline launch medians
  double log_sd = 0;         // sample standard deviation of log launch medians
  double t_quantile = 0;     // t_{n-1, 1-band_alpha}
  double half_width = 0;     // relative, 1 - exp(-h), before the floor
  double floor = 0;          // static tolerance of the size class or key
  double tolerance = 0;      // max(floor, half_width): what a launch may lose
  bool calibrated = false;   // half_width from `fabricgate calibrate` (entry.band)
  bool noisy = false;        // half_width > policy.max_band: not gateable
  // The two noise levels behind the band (session_band; harness/stats/variance_components.hpp).
  std::size_t sessions = 0;        // sessions behind the centre and band
  std::size_t hosts = 0;           // distinct hosts among them (0 when the file names none)
  double within_sd = 0;            // launch-to-launch SD inside a session (log scale)
  double between_sd = 0;           // session-to-session SD; the allowance when not estimated
  bool between_estimated = false;  // false: < min_sessions sessions, policy session_allowance used
  // The file names each launch's sitting, fewer than min_sessions of them, and the policy's
  // allowance stands in for the noise between sittings: nobody measured how far a new sitting
  // moves the key, so it is not gated (UNMEASURED). A policy with session_allowance 0 states
  // that term is nil (a narrower band: stricter, never more lenient); a calibrated band measured
  // it.
  bool between_unmeasured = false;
  double dof = 0;                         // degrees of freedom of the t quantile (Satterthwaite)
  std::string centre_scope = "platform";  // "host": the judged host's own sessions judged it
  std::string host;                       // the host whose sessions made a "host" centre
};

// From launch medians alone (calibrate uses it on A/A launches). Needs >= 2 positive values.
LaunchBand prediction_band(std::span<const double> launch_medians, double band_alpha);

// The band `fabricgate calibrate --write` stores: how far N A/A launch medians fall from the
// baseline's OWN centre, not from their own mean. A centre taken from a few back-to-back launches
// can sit away from the level the machine holds later; the gate compares every launch with that
// centre, so the band must cover the offset as well as the spread:
// h = max(0, mean loss) + t_{N-1, 1-band_alpha} * s * sqrt(1 + 1/N), loss = log(centre / x) for a
// metric where higher is better, log(x / centre) for time. Needs >= 2 positive values.
LaunchBand band_around_centre(std::span<const double> launch_medians, double centre,
                              bool higher_is_better, double band_alpha);

// The band for ONE launch of a NEW session (CI judges a launch on another runner, another day): log
// launch medians grouped by session (metric.run_sessions; all one session when the file has none),
// variance components V as in variance_components.hpp, centre = exp(mean of session means), h =
// t_{dof, 1-band_alpha} sqrt(V), relative band 1 - exp(-h), floored by the size class (or key)
// tolerance, NOISY above policy.max_band. With fewer than policy.min_sessions sessions the between
// term is policy.session_allowance (between_estimated = false). Host-aware centre: when
// `judged_host` has >= policy.host_min_sessions sessions among this metric's (host of a session
// from `session_hosts`, Baseline::sessions), the centre and band come from those sessions only
// (centre_scope "host"): GPUs of one SKU differ by several percent, and a host's own history judges
// it more sharply than the platform's. A calibrated band (entry.band, `fabricgate calibrate
// --write`) still replaces the half-width.
LaunchBand session_band(const TolerancePolicy& policy, const BaselineEntry& entry,
                        const MetricBaseline& metric, const std::string& judged_host,
                        const std::map<std::string, std::string>& session_hosts = {});

// The change question's band for a host with launches of its own (the store's, and any sessions
// of it in the baseline) but fewer than policy.host_min_sessions sessions in the baseline: the
// centre is this host's level (mean of its session means), the noise the LARGER of the fleet's
// components and the host's own where they are measurable, and one launch of a new session of the
// host differs from that centre with V = sb2 (1 + 1/S_h) + sw2 (1 + sum(1/n_s)/S_h^2) over the
// host's S_h sessions (variance_components.hpp). Why the fleet's noise: a few launches a minute
// apart cannot tell how far this host moves between sittings, and the fleet's between-session SD
// (which holds host-to-host differences as well) is an upper bound on it that was measured.
// centre_scope "host", `host` named. `values`/`sessions` are parallel; "" sessions count alone.
LaunchBand host_level_band(const TolerancePolicy& policy, const BaselineEntry& entry,
                           const MetricBaseline& fleet, std::span<const double> values,
                           std::span<const std::string> sessions, const std::string& host);

// session_band for no particular host (the platform centre): every caller gets the two-level band.
LaunchBand launch_band(const TolerancePolicy& policy, const BaselineEntry& entry,
                       const MetricBaseline& metric);

// Robust CV (1.4826 MAD / median) of one launch's repetitions; 0 with fewer than 3 (a launch of
// one or two values has no stability of its own to judge: imported single-value launches).
double launch_instability(std::span<const double> repetitions);

}  // namespace fabricgate::gate
