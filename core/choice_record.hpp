#pragma once
// NCCL's choice as the run record carries it: the profiler plugin's counts (ChoiceSummary,
// unsigned, with the datatypes and counts it also sees) become the record's typed Choice once,
// here, in the bench as it writes each result and in the harness when it reads NCCL's logs.
#include <nlohmann/json.hpp>

#include "core/benchmark_result.hpp"
#include "core/choice_summary.hpp"

namespace fabricgate::capture {

// The record's typed choice (what is written: events, algo, proto, channels, warps, funcs).
Choice to_choice(const ChoiceSummary& choice);
// {"algo": {...}, "proto": {...}, "channels": {...}, "warps": {...}, "funcs": {...}, "events": n}
nlohmann::json choice_to_json(const ChoiceSummary& choice);

}  // namespace fabricgate::capture
