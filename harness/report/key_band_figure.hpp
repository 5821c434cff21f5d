#pragma once
// The first thing the HTML report shows for each failing or ambiguous key: a small chart of its
// launches (the first launch, then each confirmation launch) against the band and centre that
// judged it, on the metric it was judged on. A reader sees at once how far outside the band the
// launches sit and whether the confirmations agreed (issue 54 item 3: the failure used to be
// 10,000 px down the page, with no band beside it).
#include <string>

#include "harness/verdict/comparison.hpp"

namespace fabricgate::report {

// One <figure> (SVG and caption) for `k`; "" when the key has no judgement to draw.
std::string key_band_figure(const verdict::KeyComparison& k);

}  // namespace fabricgate::report
