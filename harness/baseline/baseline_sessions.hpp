#pragma once
// Which session each run of a `baseline create` / `update` belongs to: noise enters between
// sittings and machines. Runs written by `fabricgate run` carry their session id; runs written
// before that (legacy run.json) do not, so they are grouped per host in time: a run that starts
// more than `legacy_gap_minutes` after the previous run of the same host opens a new session. 30
// minutes: one `run` invocation starts its launches seconds apart (a suite of scenarios,
// confirmations), while two sittings of a CI job on one runner are hours apart; a user repeating
// `run` by hand within half an hour is, for the noise that matters (clocks, placement, the
// machine's state), the same sitting.
#include <string>
#include <vector>

#include "harness/model/baseline.hpp"
#include "harness/model/run_record.hpp"

namespace fabricgate::gate {

inline constexpr int kLegacySessionGapMinutes = 30;

struct RunSession {
  std::string id;
  std::string host;
  std::string started_at;
};

// One RunSession per run, in the runs' order. Legacy ids: "legacy-<host>-<compact UTC start of
// the group's first run>" (stable: the same runs give the same ids at every create).
std::vector<RunSession> sessions_of_runs(const std::vector<RunRecord>& runs,
                                         int legacy_gap_minutes = kLegacySessionGapMinutes);

// The baseline's top-level list: one entry per distinct session, launches = runs in it, ordered
// by started_at then id.
std::vector<BaselineSession> session_list(const std::vector<RunSession>& per_run);

// "sessions: S on H hosts" and, with fewer than policy.min_sessions, that the between-session term
// is not estimated and the allowance judges instead (every create/update says so).
std::string describe_sessions(const Baseline& baseline);

// Seconds since the epoch of "YYYY-MM-DDTHH:MM:SSZ"; -1 when the text is not that.
long long seconds_of_iso8601(const std::string& text);

}  // namespace fabricgate::gate
