#pragma once
// The results store's part in `run` and `compare`: after the gate, DRIFT from the store's recent
// runs of the platform (gate/drift.hpp), then the run with its final verdicts is recorded. The
// logic is in harness/store and harness/gate; this is the glue both commands share.
#include <filesystem>
#include <string>

#include "harness/model/baseline.hpp"
#include "harness/model/run_record.hpp"
#include "harness/store/store_location.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::cli {

// The results root a run directory sits in (<root>/<platform>/<run-id>), else "results".
std::filesystem::path results_root_of(const RunRecord& run);

// Applies DRIFT to `comparison` and records the run. A store that cannot be opened or written
// is reported on stderr (by its display form) and returns false: the gate's verdicts stand, the
// caller exits 3 unless the gate already failed. StoreKind::none does nothing and returns true.
bool judge_drift_and_record(const store::StoreLocation& location, const RunRecord& run,
                            const Baseline* baseline, gate::Comparison& comparison);

}  // namespace fabricgate::cli
