#pragma once
// GitHub Actions: when $GITHUB_STEP_SUMMARY names a file, the Markdown report is appended to it
// so it appears on the job's summary page.
#include <string>

#include "harness/verdict/comparison.hpp"

namespace fabricgate::report {

// Returns the path written to, or "" when the variable is unset. Throws InfraError on I/O failure.
std::string append_github_step_summary(const verdict::Comparison& c);

}  // namespace fabricgate::report
