#pragma once
// The results store: one interface, two backends (SQLite for a single runner, PostgreSQL shared
// by runners and clusters). Every write is one transaction: a run is in the store with all its
// medians or not at all, whatever kills the writer. Errors are StoreError (an InfraError, exit 3)
// and name the store by its display form, never a credential.
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "harness/store/schema.hpp"
#include "harness/store/store_location.hpp"
#include "harness/store/stored_run.hpp"

namespace fabricgate::store {

class StoreError : public InfraError {
 public:
  using InfraError::InfraError;
};

struct RunQuery {
  std::string platform;
  std::size_t last = 0;        // newest runs; 0 = all
  std::string key;             // when set: only runs that measured it, and only its median
  std::string exclude_run_id;  // leave this run out (the one being compared)
  std::string host;            // when set: only runs of this host id
  std::string started_before;  // when set (ISO 8601 UTC): only runs started strictly before
  bool oldest = false;         // with last: the oldest runs instead (a host's first level)
  bool sealed_only = false;    // only rows that carry a seal (row_seal.hpp; checked by the caller)
  std::string node = {};       // when set: only runs whose nodes include this host name
  std::string run_id = {};     // when set: only the run of this id
};

// What a person said one finding of a run was (schema v7; `fabricgate ack --label`): the gate's
// measured precision on the dashboard counts these.
struct FindingLabel {
  std::string platform;
  std::string run_id;
  std::string subject;  // "run" (the run's failure as a whole), a key, or "FINDING NODE"
  std::string label;    // false-alarm | real | expected
  std::string who;
  std::string note;         // the URL, or ""
  std::string labelled_at;  // ISO 8601 UTC
};

inline constexpr const char* kFindingLabels[] = {"false-alarm", "real", "expected"};

class ResultsStore {
 public:
  virtual ~ResultsStore() = default;
  // Adds the run, or replaces the run of the same platform and id (a re-compare updates verdicts).
  void record(const StoredRun& run) { record_all({run}); }
  // Several runs in one transaction (import, benchmarks).
  virtual void record_all(const std::vector<StoredRun>& runs) = 0;
  // Runs of a platform, oldest first (started_at, then run id), with their medians.
  virtual std::vector<StoredRun> runs(const RunQuery& query) = 0;
  virtual std::vector<std::string> platforms() = 0;
  virtual std::size_t run_count(const std::string& platform) = 0;
  virtual int schema_version() = 0;
  // Adds the label, or replaces the one of the same platform, run and subject.
  virtual void record_label(const FindingLabel& label) = 0;
  // The labels of a platform, oldest first; none before schema v7.
  virtual std::vector<FindingLabel> labels(const std::string& platform) = 0;
  const std::string& display() const { return display_; }

 protected:
  explicit ResultsStore(std::string display) : display_(std::move(display)) {}

 private:
  std::string display_;
};

// Opens the store at `location`. Either access refuses, untouched, a database that is not a
// fabricgate store (other tables, or a schema_version table of another shape). Throws InputError
// for StoreKind::none, StoreError (exit 3) when the store cannot be opened or is not a
// fabricgate store, or (read access) does not exist yet or is too old to read unmigrated.
std::unique_ptr<ResultsStore> open_store(const StoreLocation& location,
                                         Access access = Access::write);

// True when this build has the PostgreSQL backend (libpq found at configure time).
bool postgresql_available();

}  // namespace fabricgate::store
