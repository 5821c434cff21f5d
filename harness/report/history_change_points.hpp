#pragma once
// Change points of a key's history (gate/change_points.hpp) in the history's terms: the run
// that starts the new level, the step as a ratio with its interval, and whether that is better or
// worse for the key's metric (time inverted). Rendered as text and as JSON (`history --json`).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/report/fingerprint_diff.hpp"
#include "harness/report/history.hpp"
#include "harness/stats/change_points.hpp"

namespace fabricgate::report {

struct HistoryChangePoint {
  std::size_t index = 0;  // into KeyHistory::points
  std::string run_id;     // first run on the new level
  std::string started_at;
  std::string previous_run_id;  // last run on the old level
  double before = 0;            // median level before, metric units
  double after = 0;
  double ratio = 1;  // after / before (Hodges-Lehmann), with its interval
  double ratio_low = 0;
  double ratio_high = 0;
  bool interval_bounded = false;
  double p_value = 1;
  bool worse = false;               // for the metric: bandwidth down or time up
  std::vector<FactChange> changed;  // fingerprint facts: last run before vs first run after
};

// Seeds the detector per key (seed_for), so the answer for a key never depends on other keys.
// With `runs` (the runs the history was built from), each change point carries what changed in
// the fingerprint facts across it.
std::vector<HistoryChangePoint> history_change_points(
    const KeyHistory& history, const stats::ChangePointOptions& options,
    const std::vector<IndexedRun>* runs = nullptr);

// One line per change point, e.g. "change point at run R (date): 45.1 -> 42.3 GB/s, -6.2 %
// (95 % interval -6.8 % .. -5.5 %), worse, p = 0.002".
std::string render_change_points_text(const KeyHistory& history,
                                      const std::vector<HistoryChangePoint>& points);

nlohmann::json change_points_json(const std::vector<HistoryChangePoint>& points);

// `history KEY --json`: key, metric, points (run_id, started_at, suite, scenario, value), trend,
// change_points.
nlohmann::json history_json(const KeyHistory& history,
                            const std::vector<HistoryChangePoint>& points);

}  // namespace fabricgate::report
