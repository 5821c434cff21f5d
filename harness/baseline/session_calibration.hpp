#pragma once
// `fabricgate calibrate --by-session`: the two noise levels of every key and what they cost, from
// runs of several sessions and hosts (a launch is judged on machines and sittings the baseline
// never saw, so that is how its false-alarm rate is measured).
//  - Components: a baseline from ALL the runs (baseline create's rules, sessions as in
//    baseline_sessions.hpp) and each key's session band (launch_band.hpp): within- and
//    between-session SD, sessions, hosts, the band and the MDE (max(floor, band): the loss that
//    fails at least half the time), NOISY keys.
//  - Leave one session out: for each session, a baseline from the OTHER sessions judges each of its
//    launches as a first launch, and again with the confirmation rule of harness/gate/
//    confirmation.hpp, the confirmation being the next launch of the same session (the previous
//    one for the session's last launch; none for a one-launch session). A launch fails when any
//    key fails. The rate comes with its exact one-sided 95 % upper bound (Clopper-Pearson).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "harness/model/baseline.hpp"
#include "harness/model/run_record.hpp"

namespace fabricgate::baseline {

struct SessionKeyRow {
  std::string key;
  std::string size_class;
  std::string metric;
  std::size_t sessions = 0;
  std::size_t hosts = 0;
  std::size_t launches = 0;
  double within_sd = 0;  // log scale (~ relative)
  double between_sd = 0;
  bool between_estimated = false;
  double band = 0;  // relative half-width for one launch of a new session
  double mde = 0;   // max(floor, band)
  bool noisy = false;
  std::size_t loso_failed = 0;            // left-out launches failing on this key, first launch
  std::size_t loso_failed_confirmed = 0;  // ... and after confirmation
};

struct LeftOutSession {
  std::string id;
  std::string host;
  std::size_t launches = 0;
  std::size_t failed = 0;            // launches failing on some key (first launch)
  std::size_t failed_confirmed = 0;  // ... after confirmation
  std::string skipped;               // why it was not judged ("" when it was)
};

struct ClassMde {
  std::string name;
  std::size_t keys = 0;
  std::size_t noisy = 0;
  double median_mde = 0;
  double max_mde = 0;
};

struct SessionCalibration {
  std::size_t sessions = 0;
  std::size_t hosts = 0;
  std::size_t runs = 0;
  bool between_estimated = false;  // sessions >= policy.min_sessions
  double session_allowance = 0;
  std::vector<SessionKeyRow> rows;
  std::vector<LeftOutSession> left_out;
  std::size_t judged = 0;  // launches judged in leave-one-session-out
  std::size_t failed = 0;
  std::size_t failed_confirmed = 0;
  double upper95 = 1;              // Clopper-Pearson upper bound of failed / judged
  double upper95_confirmed = 1;    // ... of failed_confirmed / judged
  std::size_t launches_spent = 0;  // launches the gate would run: first + confirmations needed
  std::vector<ClassMde> classes;
  // With >= min_sessions sessions: the 90th percentile (nearest rank) of the keys' between-session
  // SDs, and that rounded up to a whole percent, a `session_allowance` for baselines of this kind
  // that hold fewer sessions (how the CPU policy's allowance was set: harness/gate/README.md).
  std::optional<double> between_sd_p90;
  std::optional<double> suggested_allowance;
};

// The 90th percentile (nearest rank) of between-session SDs rounded UP to a whole percent: the
// allowance stands in for an unmeasured key's term, so it should cover most keys. 0 for none.
double allowance_from_between_sds(std::span<const double> between_sds);

// Needs runs of >= 2 sessions (leave-one-out needs another session to judge with). Throws
// InputError as baseline create does (incomplete runs, mixed platforms, ...).
SessionCalibration calibrate_by_session(const std::vector<RunRecord>& runs,
                                        const TolerancePolicy& policy);

std::string render_session_calibration(const SessionCalibration& c);

}  // namespace fabricgate::baseline
