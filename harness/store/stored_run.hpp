#pragma once
// What the results store keeps of one run: its identity, the fingerprint digest and the compact
// facts that explain a step (versions, identity, NCCL_*/FI_*/UCX_* settings), and per key the
// launch medians and the gate's verdict. Samples stay in run.json: the store answers "what was
// the level, when did it change", which needs one row per key and run.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/model/run_record.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::store {

struct StoredMedian {
  std::string key;
  std::uint64_t bytes = 0;
  double time_us = 0;
  double algbw_GBps = 0;
  std::optional<double> busbw_GBps;
  std::string verdict;  // "PASS", "DRIFT", ...; "" when the run was not compared
};

struct StoredRun {
  std::string platform;
  std::string run_id;
  std::string started_at;  // ISO 8601 UTC
  std::string host_id;     // harness/model/host_identity.hpp; "" when not recorded
  std::string session_id;  // one `fabricgate run` invocation; "" for legacy runs
  std::string suite;
  std::string scenario;
  bool complete = true;
  std::string
      fingerprint_digest;  // FNV-1a 64 of the canonical fingerprint facts, hex; "" without one
  nlohmann::json facts = nlohmann::json::object();
  // The run's runner counters, compact (counters::compact_json): not part of `facts`, whose
  // differences are a "what changed" between runs, nor of the digest.
  nlohmann::json runner_counters = nlohmann::json::object();
  std::map<std::string, std::string> env;  // scenario environment and captured overrides
  std::vector<StoredMedian> medians;
  // HMAC of the row under the recording machine's host key (row_seal.hpp); "" when unsealed
  // (recorded by `store import` or `compare`, or before schema v5).
  std::string host_seal;
  std::vector<std::string> nodes;  // the run's host names (a node's name when it has none)
};

// Launch medians of every clean result (status ok, no PITFALLS error), with the verdicts of
// `comparison` when given. Values are what run.json holds, already validated by load_run.
StoredRun stored_run_from(const RunRecord& run, const verdict::Comparison* comparison);

// The compact facts a "what changed" diff needs: versions, fingerprint identity, per-node facts
// that all nodes share, and the captured environment overrides.
nlohmann::json fingerprint_facts(const RunRecord& run);

// Hex FNV-1a 64 of facts.dump() (nlohmann sorts object keys, so the dump is canonical).
std::string fingerprint_digest(const nlohmann::json& facts);

}  // namespace fabricgate::store
