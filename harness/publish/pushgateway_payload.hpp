#pragma once
// What a run becomes on a Prometheus Pushgateway: the grouping key (platform, host, suite,
// scenario: one group per measured configuration, replaced by each push) and the metrics in the
// text exposition format. Pure functions of the run and its comparison.
//
// Per key (label key="<benchmark key>"): fabricgate_time_seconds, fabricgate_algbw_gbps,
// fabricgate_busbw_gbps (collectives only), fabricgate_performance_ratio (keys judged against a
// baseline; > 1 better), fabricgate_key_failed (0/1). Per run: fabricgate_gate_failed (0/1),
// fabricgate_gate_exit_code, fabricgate_run_complete (0/1), fabricgate_keys{verdict="..."}.
// The grouping labels are not repeated on each line: the Pushgateway adds them to every series.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/model/run_record.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::publish {

// Label name → value, in URL order after /metrics/job/fabricgate.
using GroupingKey = std::vector<std::pair<std::string, std::string>>;

// platform, host (rank 0's host; "unknown" when the run lists no ranks), suite, scenario.
GroupingKey pushgateway_grouping(const RunRecord& run);

// The request body: HELP/TYPE once per metric family, then its samples; ends with a newline.
// Benchmarks that did not finish with status ok contribute no figures (their verdicts still count).
// A key listed twice in a run keeps its first result (one series per label set).
std::string pushgateway_exposition(const RunRecord& run, const verdict::Comparison& comparison);

// A label value escaped for the exposition format: \ → \\, " → \", newline → \n.
std::string exposition_label_value(std::string_view value);

// A sample value: shortest round-trip decimal, NaN, +Inf or -Inf.
std::string exposition_number(double value);

}  // namespace fabricgate::publish
