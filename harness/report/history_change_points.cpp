#include "harness/report/history_change_points.hpp"

#include <cmath>
#include <cstdio>

#include "harness/verdict/units_text.hpp"

namespace fabricgate::report {

using nlohmann::json;

namespace {

const nlohmann::json* facts_of(const std::vector<IndexedRun>* runs, const std::string& run_id) {
  if (!runs) return nullptr;
  for (const IndexedRun& r : *runs) {
    if (r.run_id == run_id) return &r.facts;
  }
  return nullptr;
}

}  // namespace

std::vector<HistoryChangePoint> history_change_points(const KeyHistory& h,
                                                      const stats::ChangePointOptions& options,
                                                      const std::vector<IndexedRun>* runs) {
  std::vector<double> values;
  values.reserve(h.points.size());
  for (const HistoryPoint& p : h.points) values.push_back(p.value);
  stats::ChangePointOptions per_key = options;
  per_key.seed = stats::seed_for(options.seed, h.key);
  std::vector<HistoryChangePoint> out;
  for (const stats::ChangePoint& cp : stats::find_change_points(values, per_key)) {
    HistoryChangePoint c;
    c.index = cp.index;
    c.run_id = h.points[cp.index].run_id;
    c.started_at = h.points[cp.index].started_at;
    c.previous_run_id = h.points[cp.index - 1].run_id;
    c.before = cp.before_median;
    c.after = cp.after_median;
    c.ratio = cp.ratio;
    c.ratio_low = cp.ratio_low;
    c.ratio_high = cp.ratio_high;
    c.interval_bounded = cp.interval_bounded;
    c.p_value = cp.p_value;
    c.worse = verdict::metric_higher_is_better(h.metric) ? cp.ratio < 1 : cp.ratio > 1;
    const nlohmann::json* before = facts_of(runs, c.previous_run_id);
    const nlohmann::json* after = facts_of(runs, c.run_id);
    if (before && after) c.changed = fingerprint_diff(*before, *after);
    out.push_back(std::move(c));
  }
  return out;
}

std::string render_change_points_text(const KeyHistory& h,
                                      const std::vector<HistoryChangePoint>& points) {
  const bool is_time = h.metric == verdict::Metric::time_us;
  if (points.empty()) return "change points: none (E-divisive means, permutation test)\n";
  std::string out;
  for (const HistoryChangePoint& c : points) {
    out += "change point at run " + c.run_id + " (" + c.started_at +
           "): " + verdict::format_metric(c.before, is_time) + " -> " +
           verdict::format_metric(c.after, is_time) + ", " + verdict::format_percent(c.ratio - 1);
    if (c.interval_bounded) {
      out += " (95% interval " + verdict::format_percent(c.ratio_low - 1) + " .. " +
             verdict::format_percent(c.ratio_high - 1) + ")";
    }
    out += std::string(", ") + (c.worse ? "worse" : "better") +
           ", p = " + verdict::format_p_value(c.p_value) + "\n";
    if (!c.changed.empty()) out += "  what changed: " + render_fact_changes(c.changed) + "\n";
  }
  return out;
}

json change_points_json(const std::vector<HistoryChangePoint>& points) {
  json out = json::array();
  for (const HistoryChangePoint& c : points) {
    json j{{"run_id", c.run_id},
           {"started_at", c.started_at},
           {"previous_run_id", c.previous_run_id},
           {"index", c.index},
           {"before", c.before},
           {"after", c.after},
           {"ratio", c.ratio},
           {"direction", c.worse ? "worse" : "better"},
           {"p_value", c.p_value}};
    json changed = json::array();
    for (const FactChange& f : c.changed)
      changed.push_back({{"what", f.what}, {"before", f.before}, {"after", f.after}});
    j["changed"] = std::move(changed);
    j["interval"] = c.interval_bounded
                        ? json{{"low", c.ratio_low}, {"high", c.ratio_high}, {"confidence", 0.95}}
                        : json(nullptr);
    out.push_back(std::move(j));
  }
  return out;
}

json history_json(const KeyHistory& h, const std::vector<HistoryChangePoint>& points) {
  json pts = json::array();
  for (const HistoryPoint& p : h.points) {
    pts.push_back({{"run_id", p.run_id},
                   {"started_at", p.started_at},
                   {"suite", p.suite},
                   {"scenario", p.scenario},
                   {"value", p.value}});
  }
  json j{{"key", h.key}, {"metric", verdict::metric_name(h.metric)}, {"points", std::move(pts)}};
  if (const auto t = trend_of(h)) {
    j["trend"] = {{"runs", t->runs},
                  {"slope_per_run", t->slope_per_run},
                  {"slope_fraction_per_run", t->slope_fraction_per_run},
                  {"first_to_last", t->first_to_last}};
  } else {
    j["trend"] = nullptr;
  }
  j["change_points"] = change_points_json(points);
  return j;
}

}  // namespace fabricgate::report
