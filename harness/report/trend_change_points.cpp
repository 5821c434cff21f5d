#include "harness/report/trend_change_points.hpp"

#include <algorithm>
#include <map>

#include "harness/report/history_change_points.hpp"
#include "harness/verdict/units_text.hpp"

namespace fabricgate::report {

namespace {

struct Step {
  const TrendSeries* series;
  HistoryChangePoint point;
};

std::string step_text(const HistoryChangePoint& c) {
  return verdict::format_percent(c.ratio - 1) + (c.worse ? " worse" : " better");
}

}  // namespace

std::vector<svg::VerticalMarker> trend_change_point_markers(const std::vector<TrendSeries>& series,
                                                            const std::vector<IndexedRun>& window) {
  std::map<std::size_t, std::vector<Step>> at;  // window index -> the keys that stepped there
  for (const TrendSeries& s : series) {
    for (HistoryChangePoint& c : history_change_points(s.history, stats::ChangePointOptions{})) {
      const auto run = std::find_if(window.begin(), window.end(),
                                    [&](const IndexedRun& r) { return r.run_id == c.run_id; });
      if (run == window.end()) continue;
      at[static_cast<std::size_t>(run - window.begin())].push_back({&s, std::move(c)});
    }
  }
  std::vector<svg::VerticalMarker> out;
  for (const auto& [index, steps] : at) {
    svg::VerticalMarker m;
    m.x = static_cast<double>(index);
    m.css_class = "change-point";
    const bool any_worse =
        std::any_of(steps.begin(), steps.end(), [](const Step& s) { return s.point.worse; });
    m.colour = any_worse ? "#d62728" : "#2ca02c";
    m.label = steps.size() == 1 ? step_text(steps.front().point)
                                : std::to_string(steps.size()) + " keys stepped";
    m.tooltip = "change point: first run on the new level " + steps.front().point.run_id + " (" +
                steps.front().point.started_at + ")";
    for (const Step& s : steps) {
      const HistoryChangePoint& c = s.point;
      const bool is_time = s.series->history.metric == verdict::Metric::time_us;
      m.tooltip += "\n" + s.series->label + ": " + verdict::format_metric(c.before, is_time) +
                   " -> " + verdict::format_metric(c.after, is_time) + ", " + step_text(c);
      if (c.interval_bounded) {
        m.tooltip += " (95% interval " + verdict::format_percent(c.ratio_low - 1) + " .. " +
                     verdict::format_percent(c.ratio_high - 1) + ")";
      }
      m.tooltip += ", p = " + verdict::format_p_value(c.p_value);
    }
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace fabricgate::report
