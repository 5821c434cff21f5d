#pragma once
// Turns what the bench left in a run directory (records.jsonl, NCCL logs) plus the fingerprint and
// the launch facts into run.json (schema fabricgate.run/1, docs/DESIGN.md). Also works on what a
// crashed run left: the records written so far, the run marked incomplete.
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/json_file.hpp"
#include "core/records_file.hpp"

namespace fabricgate::launch {

// records.jsonl is read by the model's one reader (core/records_file.hpp).
using fabricgate::RecordsFile;
inline RecordsFile read_records(const std::filesystem::path& file) {
  return read_records_file(file);
}

struct RunFacts {
  std::string run_id;
  std::string suite;
  std::string scenario;
  std::map<std::string, std::string> scenario_env;
  std::map<std::string, std::string>
      extra_env;                          // added for every rank by the caller (fabricgate ab)
  std::set<std::string> extra_env_unset;  // removed for every rank by the caller (ab unset=)
  std::string platform;
  std::string launcher;
  std::string started_at;  // ISO 8601 UTC
  std::string finished_at;
  // One `fabricgate run` invocation: every scenario and confirmation launch it makes shares it.
  std::string host_id;
  std::string session_id;
  std::string session_started_at;
  std::string incomplete_reason;  // empty when the launch ended normally
  // Share of the launch's wall time some runnable task of the launching host waited for a CPU
  // (cpu_pressure.hpp); absent where the kernel has no PSI.
  std::optional<double> host_cpu_pressure;
  // run.json "runner_counters" (harness/counters/launch_counters.hpp); null: not recorded.
  json runner_counters;
  json metadata = json::object();
};

json assemble_run(const RunFacts& facts, const RecordsFile& records, const json& fingerprint,
                  const json& capture);

// "2026-11-29T19:00:00Z"
std::string utc_now_iso8601();

// The session of this process: started when first asked, id "<compact UTC>-<host id>-<pid>".
// Every launch one `fabricgate run` makes (scenarios, confirmations) gets the same one.
// FABRICGATE_SESSION, when set, is the id instead (one CI job running `fabricgate run` per launch).
struct InvocationSession {
  std::string id;
  std::string started_at;  // ISO 8601 UTC
  std::string host_id;
};
const InvocationSession& invocation_session(const json& fingerprint);
// "20261129T190000Z"
std::string utc_now_compact();
// git commit, CI run id and URL from the usual CI variables (GitHub Actions, GitLab, Jenkins).
json ci_metadata();

}  // namespace fabricgate::launch
