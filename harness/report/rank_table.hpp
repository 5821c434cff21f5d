#pragma once
// The per-rank table of each key a STRAGGLER or JITTER names (Comparison::rank_tables), and the
// HTML report's cluster findings. docs/STRAGGLERS.md "Reading the per-rank table" explains the
// columns; renderers print what the record holds and compute only the shares and ratios shown.
#include <string>

#include "harness/verdict/comparison.hpp"

namespace fabricgate::report {

// "" when there is no table to show.
std::string rank_tables_markdown(const verdict::Comparison& c);
std::string rank_tables_html(const verdict::Comparison& c);
// The console's short form: one line per rank of each table.
std::string rank_tables_console(const verdict::Comparison& c);
// <section id="cluster"> with one row per cluster finding; "" without findings.
std::string cluster_findings_html(const verdict::Comparison& c);

}  // namespace fabricgate::report
