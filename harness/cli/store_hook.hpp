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

// The platform's runs that started before `run` (newest `window`), oldest first, for DRIFT.
// nullopt for StoreKind::none and when the store cannot be read (said on stderr: the run is then
// judged without DRIFT, and `failed` is set so the caller can exit 3).
std::optional<gate::RunHistory> load_history(const store::StoreLocation& location,
                                             const RunRecord& run, std::size_t window,
                                             bool& failed);

// Records the run with its final verdicts. A store that cannot be opened or written is reported
// on stderr and returns false (the caller exits 3 unless the gate already failed).
bool record_run(const store::StoreLocation& location, const RunRecord& run,
                const gate::Comparison& comparison);

}  // namespace fabricgate::cli
