#include "harness/store/schema.hpp"

#include "harness/store/results_store.hpp"

#include <stdexcept>

namespace fabricgate::store {

namespace {

// Column types and table options that differ between the dialects.
struct Types {
  const char* id;   // surrogate key column
  const char* ref;  // column referring to one
  const char* real;
  const char* options;  // after a table definition
};

Types types(Dialect d) {
  if (d == Dialect::sqlite) return {"INTEGER PRIMARY KEY", "INTEGER", "REAL", " WITHOUT ROWID"};
  return {"BIGSERIAL PRIMARY KEY", "BIGINT", "DOUBLE PRECISION", ""};
}

std::string runs_v1(const Types& t) {
  return std::string("CREATE TABLE runs (id ") + t.id +
         ", platform TEXT NOT NULL, run_id TEXT NOT NULL, started_at TEXT NOT NULL, suite TEXT NOT "
         "NULL,"
         " scenario TEXT NOT NULL, complete INTEGER NOT NULL, UNIQUE (platform, run_id))";
}

std::string medians_v2(const Types& t, const std::string& name) {
  return "CREATE TABLE " + name + " (run " + t.ref +
         " NOT NULL REFERENCES runs(id) ON DELETE CASCADE, key " + t.ref +
         " NOT NULL REFERENCES keys(id), bytes " + t.ref + " NOT NULL, time_us " + t.real +
         " NOT NULL CHECK (time_us >= 0), algbw " + t.real +
         " NOT NULL CHECK (algbw >= 0), busbw " + t.real +
         ", verdict TEXT NOT NULL DEFAULT '', PRIMARY KEY (run, key))" + t.options;
}

}  // namespace

std::vector<std::string> create_schema_v1(Dialect d) {
  const Types t = types(d);
  return {"CREATE TABLE schema_version (version INTEGER NOT NULL)", runs_v1(t),
          std::string("CREATE TABLE medians (run ") + t.ref +
              " NOT NULL REFERENCES runs(id), key TEXT NOT NULL, bytes " + t.ref +
              " NOT NULL, time_us " + t.real + " NOT NULL, algbw " + t.real + " NOT NULL, busbw " +
              t.real + ", PRIMARY KEY (run, key))",
          "INSERT INTO schema_version (version) VALUES (1)"};
}

std::vector<std::string> migrate_from(int from, Dialect d) {
  const Types t = types(d);
  if (from == 1) {
    return {"ALTER TABLE runs ADD COLUMN fingerprint_digest TEXT NOT NULL DEFAULT ''",
            "ALTER TABLE runs ADD COLUMN facts TEXT NOT NULL DEFAULT '{}'",
            "ALTER TABLE runs ADD COLUMN env TEXT NOT NULL DEFAULT '{}'",
            "CREATE INDEX runs_by_start ON runs (platform, started_at, run_id)",
            std::string("CREATE TABLE keys (id ") + t.id + ", key TEXT NOT NULL UNIQUE)",
            "INSERT INTO keys (key) SELECT DISTINCT key FROM medians ORDER BY key",
            medians_v2(t, "medians_v2"),
            "INSERT INTO medians_v2 (run, key, bytes, time_us, algbw, busbw, verdict) SELECT "
            "m.run, k.id, m.bytes, "
            "m.time_us, m.algbw, m.busbw, '' FROM medians m JOIN keys k ON k.key = m.key",
            "DROP TABLE medians",
            "ALTER TABLE medians_v2 RENAME TO medians",
            "UPDATE schema_version SET version = 2"};
  }
  if (from == 2) {
    return {"ALTER TABLE runs ADD COLUMN host_id TEXT NOT NULL DEFAULT ''",
            "ALTER TABLE runs ADD COLUMN session_id TEXT NOT NULL DEFAULT ''",
            "UPDATE schema_version SET version = 3"};
  }
  if (from == 3) {
    return {"ALTER TABLE runs ADD COLUMN runner_counters TEXT NOT NULL DEFAULT '{}'",
            "UPDATE schema_version SET version = 4"};
  }
  if (from == 4) {
    return {"ALTER TABLE runs ADD COLUMN host_seal TEXT NOT NULL DEFAULT ''",
            "UPDATE schema_version SET version = 5"};
  }
  if (from == 5) {
    return {"ALTER TABLE runs ADD COLUMN nodes TEXT NOT NULL DEFAULT '[]'",
            "UPDATE schema_version SET version = 6"};
  }
  if (from == 6) {
    return {
        "CREATE TABLE labels (platform TEXT NOT NULL, run_id TEXT NOT NULL, subject TEXT NOT "
        "NULL, label TEXT NOT NULL CHECK (label IN ('false-alarm', 'real', 'expected')), who "
        "TEXT NOT NULL, note TEXT NOT NULL, labelled_at TEXT NOT NULL, PRIMARY KEY (platform, "
        "run_id, subject))",
        "UPDATE schema_version SET version = 7"};
  }
  throw std::logic_error("no migration from schema version " + std::to_string(from));
}

std::vector<std::string> migrate_to_current(int found, Dialect d, const std::string& store) {
  if (found > kSchemaVersion) {
    throw StoreError("results store " + store + ": schema version " + std::to_string(found) +
                     " is newer than this fabricgate's (" + std::to_string(kSchemaVersion) +
                     "); upgrade fabricgate");
  }
  if (found < 1)
    throw StoreError("results store " + store + ": schema_version table without a version");
  std::vector<std::string> out;
  for (int v = found; v < kSchemaVersion; ++v) {
    for (std::string& s : migrate_from(v, d)) out.push_back(std::move(s));
  }
  return out;
}

std::vector<std::string> create_current_schema(Dialect d) {
  std::vector<std::string> out = create_schema_v1(d);
  for (int v = 1; v < kSchemaVersion; ++v) {
    for (std::string& s : migrate_from(v, d)) out.push_back(std::move(s));
  }
  return out;
}

}  // namespace fabricgate::store
