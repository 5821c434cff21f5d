#pragma once
// Which session each run of a `baseline create` / `update` belongs to: noise enters between
// sittings and machines, so a session is a sitting. Runs of one host less than
// kSittingGapMinutes (30) apart are one sitting, whatever `run` invocations made them: five
// `run --no-compare` launches within a minute are one sitting, not five sessions (issue 53: they
// stood for the between-session noise, and 3 of 10 later A/A launches failed against a 16.5 %
// band that the platform's own file has at 50 %). 30 minutes: one `run` starts its launches
// seconds apart, two sittings of a CI job on one runner are hours apart. A sitting's id is its
// first run's session id (runs written before run.json carried one: "legacy-<host>-<start>").
#include <string>
#include <vector>

#include "harness/model/baseline.hpp"
#include "harness/model/run_record.hpp"

namespace fabricgate::baseline {

struct RunSession {
  std::string id;
  std::string host;
  std::string started_at;
};

// One RunSession per run, in the runs' order: its sitting. Ids: the sitting's first run's session
// id, else "legacy-<host>-<compact UTC start of the sitting's first run>" (stable: the same runs
// give the same ids at every create).
std::vector<RunSession> sessions_of_runs(const std::vector<RunRecord>& runs,
                                         int gap_minutes = kSittingGapMinutes);

// The baseline's top-level list: one entry per distinct session, launches = runs in it, ordered
// by started_at then id.
std::vector<BaselineSession> session_list(const std::vector<RunSession>& per_run);

// "sessions: S on H hosts" and, with fewer than policy.min_sessions, that the between-session term
// is not estimated and the allowance judges instead (every create/update says so).
std::string describe_sessions(const Baseline& baseline);

// Seconds since the epoch of "YYYY-MM-DDTHH:MM:SSZ"; -1 when the text is not that.
long long seconds_of_iso8601(const std::string& text);

}  // namespace fabricgate::baseline
