#pragma once
// A busbw-vs-size chart for the Markdown report as a Mermaid `xychart-beta` block, which GitHub
// renders in job summaries and pull requests (inline SVG is stripped there). Bars: baseline median,
// line: this run; one category per message size.
#include <string>
#include <vector>

#include "harness/verdict/comparison.hpp"

namespace fabricgate::report {

// `keys`: one curve, ascending in size. Returns "" when a chart would mislead or say nothing: fewer
// than two sizes, a size measured twice (several series), or a size without a rate.
std::string mermaid_rate_chart(const std::string& title,
                               const std::vector<const verdict::KeyComparison*>& keys);

}  // namespace fabricgate::report
