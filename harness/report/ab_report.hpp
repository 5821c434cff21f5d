#pragma once
// Renderers for the A/B gate (ab::AbComparison): a console table for CI logs and Markdown for
// GitHub's job summary. Failing keys first; what changed between the sides on top. They compute
// nothing new; ab.json comes from ab::ab_to_json.
#include <string>

#include "harness/ab/ab_compare.hpp"

namespace fabricgate::report {

std::string render_ab_console(const ab::AbComparison& c, bool color);
std::string render_ab_markdown(const ab::AbComparison& c);

// Appends the Markdown to $GITHUB_STEP_SUMMARY when set; returns the path ("" when unset).
// Throws InfraError when the file cannot be written.
std::string append_ab_step_summary(const ab::AbComparison& c);

}  // namespace fabricgate::report
