#pragma once
// JSON for the run record: the "capture" object and a benchmark's "choice" (docs/DESIGN.md).
#include <string_view>

#include "core/benchmark_result.hpp"
#include "core/choice_record.hpp"  // to_choice, choice_to_json: shared with the bench
#include "core/choice_summary.hpp"
#include "core/json_file.hpp"
#include "harness/analysis/capture_summary.hpp"

namespace fabricgate::capture {

// `path` is "profiler", "log" or "none"; empty derives "log"/"none" from what the logs held.
// Carries the DESIGN fields (path, nccl_version, network, transports, gdrdma, env_overrides)
// plus the extras (networks, net_provider, transport_connections, nvls_available, channels,
// rings/trees connected, ranks, tuning, profiler_plugin).
json capture_to_json(const CaptureSummary& summary, std::string_view path = {});

}  // namespace fabricgate::capture
