#pragma once
// Renderers for the A/B gate (gate::AbComparison): a console table for CI logs and Markdown for
// GitHub's job summary. Failing keys first; what changed between the sides on top. They compute
// nothing new; ab.json comes from gate::ab_to_json.
#include <string>

#include "harness/ab/ab_compare.hpp"

namespace fabricgate::report {

std::string render_ab_console(const gate::AbComparison& c, bool color);
std::string render_ab_markdown(const gate::AbComparison& c);

// Appends the Markdown to $GITHUB_STEP_SUMMARY when set; returns the path ("" when unset).
// Throws InfraError when the file cannot be written.
std::string append_ab_step_summary(const gate::AbComparison& c);

}  // namespace fabricgate::report
