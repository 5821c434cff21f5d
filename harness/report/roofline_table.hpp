#pragma once
// "% of roofline" per key (harness/roofline): a table for the console and for Markdown, and the
// lines a run without a baseline shows about what was judged and how to build a baseline.
#include <string>
#include <vector>

#include "harness/verdict/comparison.hpp"

namespace fabricgate::report {

// "" when no key has a roofline finding.
std::string roofline_console(const verdict::Comparison& c);
std::string roofline_markdown(const verdict::Comparison& c);

// For a run without a baseline: what was judged anyway, and the commands that build a baseline
// over sessions. One line each, no markup.
std::vector<std::string> first_run_lines(const verdict::Comparison& c);

}  // namespace fabricgate::report
