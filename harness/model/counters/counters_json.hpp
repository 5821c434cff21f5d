#pragma once
// run.json "runner_counters" (docs/COUNTERS.md) to and from RunnerCounters. The reader is strict
// on types (a counter is an unsigned integer, a gauge a finite number or null) and names the file
// and JSON pointer of anything else (InputError, exit 2); absent optional fields take defaults, so
// a run written by an older fabricgate (no section at all) reads as `present = false`.
#include <string>

#include <nlohmann/json.hpp>

#include "harness/model/counters/counter_record.hpp"

namespace fabricgate::counters {

nlohmann::json to_json(const RunnerCounters& counters);

// What the results store keeps of a run's counters: wall and snapshot time, the foreign
// processes, and per device only what moved (non-zero deltas, with their notes), the events
// seen, vanished devices and sources not read. A quiet launch is a few hundred bytes.
nlohmann::json compact_json(const RunnerCounters& counters);

// `section` is the value of "runner_counters"; `pointer` is where it sits ("/runner_counters").
RunnerCounters runner_counters_from_json(const nlohmann::json& section, const std::string& origin,
                                         const std::string& pointer);

}  // namespace fabricgate::counters
