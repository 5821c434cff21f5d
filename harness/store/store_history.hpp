#pragma once
// The store as a source for the history (report/history.hpp): the newest runs of a platform as
// IndexedRun, oldest first, read in one transaction instead of parsing one run.json per run.
#include <string>
#include <vector>

#include "harness/report/history.hpp"
#include "harness/store/results_store.hpp"

namespace fabricgate::store {

report::IndexedRun indexed_run(const StoredRun& run);

// Runs of `query` (oldest first) as the history reads them.
std::vector<report::IndexedRun> indexed_runs(ResultsStore& store, const RunQuery& query);

// The only platform in the store, or `wanted` when given and present. Throws InputError naming
// the store when the choice is ambiguous or the platform is absent.
std::string choose_platform(ResultsStore& store, const std::string& wanted);

}  // namespace fabricgate::store
