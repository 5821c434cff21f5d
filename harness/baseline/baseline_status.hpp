#pragma once
// `fabricgate baseline status`: what a baseline can gate now and what it lacks. Per key: the
// launches behind its band against policy min_runs, whether the band is wider than max_band
// (NOISY: not gated, fails only beyond its wide band) and how many launches would bring it under
// max_band if the launch-to-launch spread stays what the baseline measured, and the minimum
// detectable effect (the smallest loss that fails at least half the time: max(size-class floor,
// band), as `calibrate` reports it), summarised per size class.
//
// Launches needed: the band's half-width is h(n) = 1 - exp(-t_{n-1, 1-band_alpha} s sqrt(1+1/n))
// (launch_band.hpp) with s the measured spread; the smallest n with h(n) <= max_band. As n grows
// h tends to 1 - exp(-z s): a spread above that limit cannot be gated with more launches alone.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "harness/baseline/calibration.hpp"
#include "harness/model/baseline.hpp"

namespace fabricgate::baseline {

struct KeyStatus {
  std::string key;
  std::string size_class;
  std::size_t launches = 0;          // behind the band (run medians, or the calibration's)
  std::size_t missing_launches = 0;  // to reach policy min_runs
  double log_sd = 0;                 // launch-to-launch spread (log space)
  double band = 0;                   // prediction half-width, before the floor
  double floor = 0;                  // size class (or key) tolerance
  double mde = 0;                    // max(floor, band): smallest loss that fails
  bool calibrated = false;
  bool noisy = false;
  bool between_unmeasured = false;  // fewer sittings than min_sessions: not gated (launch_band.hpp)
  // NOISY keys: launches that would make the band <= max_band (nullopt: no number of launches
  // does, the spread itself is too wide).
  std::optional<std::size_t> launches_to_gate;
};

struct BaselineStatus {
  std::string source;
  std::string platform;
  TolerancePolicy policy;
  std::vector<KeyStatus> keys;
  std::vector<SizeClassSummary> classes;  // policy order; median/max MDE over gateable keys
  std::size_t gateable = 0;               // enough launches and not NOISY
  std::size_t noisy = 0;
  std::size_t too_few = 0;         // fewer launches than min_runs
  std::size_t never_gateable = 0;  // NOISY whatever the launch count
  std::size_t unmeasured = 0;      // between-sitting noise unmeasured: launches of other sittings
  std::size_t sittings = 0;        // distinct sessions (sittings) the baseline's launches come from
  // Launches (per key) with which at least half of the NOISY keys would be gateable; nullopt when
  // no key is NOISY or more than half can never be.
  std::optional<std::size_t> launches_for_most_noisy;
};

// Smallest n (from `from`, at most `limit`) with a band <= max_band for spread `log_sd`, or
// nullopt.
std::optional<std::size_t> launches_to_gate(double log_sd, double band_alpha, double max_band,
                                            std::size_t from, std::size_t limit = 1000);

BaselineStatus baseline_status(const Baseline& baseline);

// The report a person reads: the summary, the size classes' MDE, then every key that is not
// gateable (with `all_keys`, every key).
// `list_keys` false: the counts and the detection table only (one screen; grow's default).
std::string render_baseline_status(const BaselineStatus& status, bool all_keys,
                                   bool list_keys = true);

// For `baseline create`: a warning when more than half of the keys are NOISY or short of
// min_runs, naming the counts and the launches that would make them gateable; "" otherwise.
std::string baseline_gateability_warning(const BaselineStatus& status);

}  // namespace fabricgate::baseline
