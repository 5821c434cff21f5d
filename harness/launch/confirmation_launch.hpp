#pragma once
// The fresh launch that confirms failing keys (harness/gate/confirmation.hpp): the same suite and
// scenario, only those keys (Google Benchmark's --benchmark_filter on the bench, whose benchmark
// names are the keys), into <first run>/confirm/ (attempt 1) or <first run>/confirm-2/ (attempt
// 2), under the runner lock the caller holds.
#include <cstddef>
#include <string>
#include <vector>

#include "harness/launch/run_orchestrator.hpp"

namespace fabricgate::launch {

// An anchored regex matching exactly these benchmark names ("^(k1|k2)/iterations:"): every
// fixture registers Iterations(1), so each instance name continues with "/iterations:".
std::string benchmark_filter_for(const std::vector<std::string>& keys);

// `base` is the first launch's options (with caller_holds_lock and fingerprint set by the caller).
ScenarioRun launch_confirmation(const RunOptions& base, const ScenarioRun& first,
                                const std::string& first_run_id,
                                const std::vector<std::string>& keys, std::size_t attempt = 1);

}  // namespace fabricgate::launch
