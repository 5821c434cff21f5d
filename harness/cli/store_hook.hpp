#pragma once
// The results store's part in `run`, `compare` and `report`: the recent runs DRIFT reads (the
// judge applies it, harness/gate/judge_run.hpp) and, for `run` and `compare`, recording the run
// with its final verdicts. The logic is in harness/store and harness/gate; this is the glue.
#include <filesystem>
#include <optional>
#include <string>

#include "harness/gate/drift.hpp"
#include "harness/model/run_record.hpp"
#include "harness/store/store_location.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::cli {

// The results root a run directory sits in (<root>/<platform>/<run-id>), else "results".
std::filesystem::path results_root_of(const RunRecord& run);

// The store a command uses: --store / $FABRICGATE_STORE, else the default next to the run.
store::StoreLocation store_for_run(const std::string& flag, const RunRecord& run);

// The platform's runs that started before `run` (newest `window`), oldest first, for DRIFT and
// the host's own level: only rows whose seal this machine's host key verifies
// (harness/store/row_seal.hpp); the others are counted in RunHistory::unsealed_runs.
// nullopt for StoreKind::none, for an SQLite store not created yet, and when the store cannot be
// read: then `failure` holds the message (the run is judged without DRIFT; the caller prints it
// after the verdict and exits 3 unless the gate failed). `access` is read for commands that must
// never change a store (report, publish); run and compare may create and migrate it.
std::optional<gate::RunHistory> load_history(const store::StoreLocation& location,
                                             const RunRecord& run, std::size_t window,
                                             store::Access access, std::string& failure);

// Records the run with its final verdicts. Called after the verdict is printed: a store that
// cannot be opened or written is reported on stderr, with where the run directory is and how to
// record it later, and returns false. `history_failure` (load_history's) is that report's reason
// when the same store already failed: a silent server is not waited for twice. Exit-code rule
// (run, compare, report): a gate failure (1) wins over a store failure; a store failure turns a
// pass into 3.
// `host_key`: seal the row with it (only `run`, for the run it measured, passes one).
bool record_run(const store::StoreLocation& location, const RunRecord& run,
                const verdict::Comparison& comparison, const std::string& history_failure,
                const std::string& host_key = "");

// Prints the failure load_history returned, if any (after the verdict).
void report_history_failure(const std::string& failure);

}  // namespace fabricgate::cli
