#pragma once
// Turns what the bench left in a run directory (records.jsonl, NCCL logs) plus the fingerprint and
// the launch facts into run.json (schema fabricgate.run/1, docs/DESIGN.md). Also works on what a
// crashed run left: the records written so far, the run marked incomplete.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "harness/model/json_file.hpp"

namespace fabricgate::launch {

struct RecordsFile {
  json header;                  // null when the bench never got that far
  std::vector<json> benchmarks;
  bool complete = false;        // a footer with complete=true was written
  bool truncated_tail = false;  // the last line was cut off (the writer died mid-line)
  std::string in_progress;      // a benchmark that started and never finished (hang or crash)
};

// Reads records.jsonl. A cut-off last line is dropped (that benchmark was not finished); a bad
// line elsewhere is an InputError naming the line.
RecordsFile read_records(const std::filesystem::path& file);

struct RunFacts {
  std::string run_id;
  std::string suite;
  std::string scenario;
  std::map<std::string, std::string> scenario_env;
  std::map<std::string, std::string> extra_env;  // added for every rank by the caller (fabricgate ab)
  std::string platform;
  std::string launcher;
  std::string started_at;   // ISO 8601 UTC
  std::string finished_at;
  std::string incomplete_reason;  // empty when the launch ended normally
  json metadata = json::object();
};

json assemble_run(const RunFacts& facts, const RecordsFile& records, const json& fingerprint, const json& capture);

// "2026-11-29T19:00:00Z"
std::string utc_now_iso8601();
// "20261129T190000Z"
std::string utc_now_compact();
// git commit, CI run id and URL from the usual CI variables (GitHub Actions, GitLab, Jenkins).
json ci_metadata();

}  // namespace fabricgate::launch
