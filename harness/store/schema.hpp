#pragma once
// The store's tables, for both dialects, and the migrations between versions.
//   v1  runs(platform, run_id, started_at, suite, scenario, complete) and medians with the key
//       text in every row (the first shape: simple, but the key text was most of the file).
//   v2  keys interned in a table of their own; runs gain the fingerprint digest, the compact
//       facts (JSON) and the environment; medians gain the gate's verdict.
//   v3  runs gain host_id and session_id (DRIFT must tell a change of host from a
//       drift); rows written before are '' (unknown).
//   v4  runs gain runner_counters (JSON): what the runner was doing during the launch, compact
//       (docs/COUNTERS.md); rows written before are '{}' (not recorded).
//   v5  runs gain host_seal: the HMAC that `run` seals its row with (row_seal.hpp); rows
//       written before are '' (unsealed: they no longer make a host's level).
//   v6  runs gain nodes (JSON array of the run's host names): `nodes --resume` counts a drained
//       node's passing runs; rows written before are '[]'.
//   v7  labels(platform, run_id, subject, label, who, note, labelled_at): what a person said a
//       finding was (false-alarm, real, expected; `fabricgate ack --label`), for the gate's
//       measured precision on the dashboard. Not tied to the runs row: a re-record keeps it.
// A store is migrated inside one transaction when opened, so a crash mid-migration leaves the
// old version intact.
#include <string>
#include <vector>

namespace fabricgate::store {

// The schema this build writes; older stores are migrated when opened.
inline constexpr int kSchemaVersion = 7;

enum class Dialect { sqlite, postgresql };

// Statements that create the current schema in an empty database (schema_version included).
std::vector<std::string> create_current_schema(Dialect d);

// Statements that create the v1 schema (tests build old stores with it).
std::vector<std::string> create_schema_v1(Dialect d);

// Statements that take a store from version `from` to `from + 1`.
std::vector<std::string> migrate_from(int from, Dialect d);

// Statements that take a store found at `found` to kSchemaVersion (none when current). Throws
// StoreError naming `store` for a version newer than this build's or below 1.
std::vector<std::string> migrate_to_current(int found, Dialect d, const std::string& store);

}  // namespace fabricgate::store
