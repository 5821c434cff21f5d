#pragma once
// Runs for the store tests: StoredRun values with a known number of medians, and a check that
// a store holds exactly what was recorded (the same helpers drive SQLite and PostgreSQL).
#include <cstddef>
#include <string>

#include "harness/store/results_store.hpp"

namespace fabricgate::testing {

// Run `index` of `platform`: started_at one minute apart, `keys` medians whose values encode
// the index (bandwidth = 100 + index) so a read-back can be checked.
store::StoredRun synthetic_run(const std::string& platform, std::size_t index, std::size_t keys,
                               const std::string& writer = "w");

// Every run of `platform` in `s` has exactly `keys` medians and the values synthetic_run gave it.
::testing::AssertionResult holds_complete_runs(store::ResultsStore& s, const std::string& platform,
                                               std::size_t keys);

}  // namespace fabricgate::testing
