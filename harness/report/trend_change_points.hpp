#pragma once
// Change points drawn on the HTML report's trend plots: each key's history in the plot goes
// through the same detector as `fabricgate history` (history_change_points.hpp, seeded per key),
// and every run that starts a new level gets one vertical marker, labelled with the step (one
// key) or the number of keys that stepped there, its tooltip naming each key, the first run on
// the new level, the step with its interval and the p-value.
#include <string>
#include <vector>

#include "harness/report/history.hpp"
#include "harness/report/svg_plot.hpp"

namespace fabricgate::report {

struct TrendSeries {
  std::string label;   // the key's name in the tooltip
  KeyHistory history;  // points whose run ids are in `window`
};

// x of a marker = the index in `window` (oldest first) of the first run on the new level.
std::vector<svg::VerticalMarker> trend_change_point_markers(const std::vector<TrendSeries>& series,
                                                            const std::vector<IndexedRun>& window);

}  // namespace fabricgate::report
