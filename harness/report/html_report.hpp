#pragma once
// The self-contained HTML report: one file, no script, no stylesheet, font or image from anywhere
// (a Content-Security-Policy forbids fetching), so it can be archived as a CI artifact and opened
// offline. Verdict headline, failing keys first, versions that changed, per collective the
// curves with the band each key was judged with and NCCL choice changes marked, the run-to-run
// trend, the GPU-pair matrix, and each PITFALLS note next to the numbers it concerns.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "harness/report/history.hpp"
#include "harness/report/html_figures.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::report {

struct HtmlInputs {
  std::vector<IndexedRun> history;  // oldest first, the reported run last; empty: no trend
  std::size_t history_last = 10;    // runs shown in the trend plots
  std::string history_source;       // directory the history was read from
  std::vector<std::string> history_warnings;
};

std::string render_html(const verdict::Comparison& c, const HtmlInputs& inputs);

}  // namespace fabricgate::report
