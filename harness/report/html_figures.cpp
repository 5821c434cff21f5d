#include "harness/report/html_figures.hpp"

#include <algorithm>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "core/key_parts.hpp"
#include "harness/report/key_figures.hpp"
#include "harness/report/svg_plot.hpp"
#include "harness/report/trend_change_points.hpp"
#include "harness/verdict/units_text.hpp"

namespace fabricgate::report {

namespace {

// Ten distinguishable colours (Tableau 10); a group with more series reuses them, dashed.
const char* const kPalette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b",
                                "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#d62728"};
constexpr std::size_t kPaletteSize = std::size(kPalette);

std::string slug(const std::string& text) {
  std::string out;
  for (const char c : text) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_' || c == '-';
    out += keep ? c : '-';
  }
  return out;
}

std::string time_tick(double us) {
  if (us < 1000) return fmt::format("{:g} us", us);
  if (us < 1e6) return fmt::format("{:g} ms", us / 1e3);
  return fmt::format("{:g} s", us / 1e6);
}

std::string size_tick(double bytes) {
  return verdict::format_bytes(static_cast<std::uint64_t>(bytes + 0.5));
}

enum class Plotted { busbw, algbw, time };

std::optional<double> now_of(const verdict::KeyComparison& k, Plotted p) {
  if (p == Plotted::busbw) return k.busbw_now;
  const double v = p == Plotted::algbw ? k.algbw_now : k.time_us_now;
  return v > 0 ? std::optional<double>(v) : std::nullopt;
}

std::optional<double> baseline_of(const verdict::KeyComparison& k, Plotted p) {
  if (p == Plotted::busbw) return k.busbw_baseline;
  const double v = p == Plotted::algbw ? k.algbw_baseline : k.time_us_baseline;
  return v > 0 ? std::optional<double>(v) : std::nullopt;
}

verdict::Metric metric_of(Plotted p) {
  return p == Plotted::busbw   ? verdict::Metric::busbw_GBps
         : p == Plotted::algbw ? verdict::Metric::algbw_GBps
                               : verdict::Metric::time_us;
}

std::optional<MetricBand> band_for(const verdict::KeyComparison& k, Plotted p) {
  return judged_band(k, metric_of(p));
}

Plotted rate_metric(const CurveGroup& g) {
  for (const verdict::KeyComparison* k : g.keys) {
    if (k->busbw_now || k->busbw_baseline) return Plotted::busbw;
  }
  return Plotted::algbw;
}

// Keys of a group split into series (keys of one shape), each ascending in size.
std::vector<std::pair<std::string, std::vector<const verdict::KeyComparison*>>> series_in(
    const CurveGroup& g) {
  std::vector<std::pair<std::string, std::vector<const verdict::KeyComparison*>>> out;
  for (const verdict::KeyComparison* k : g.keys) {
    const std::string s = series_of(k->key);
    if (out.empty() || out.back().first != s)
      out.emplace_back(s, std::vector<const verdict::KeyComparison*>{});
    out.back().second.push_back(k);
  }
  return out;
}

// Legend text of a series: the key's shape without the parts the group title already says.
std::string series_label(const std::string& series) {
  const std::string label = BenchmarkKey::parse(series).drop_front(2).without({"ranks"}).text();
  return label.empty() ? series : label;
}

bool is_choice_change(const verdict::Change& c) {
  return c.what == "algo" || c.what == "proto" || c.what == "channels";
}

}  // namespace

std::optional<MetricBand> judged_band(const verdict::KeyComparison& k, verdict::Metric m) {
  if (!k.judgement || k.judgement->metric != m) return std::nullopt;
  const verdict::MetricJudgement& j = *k.judgement;
  if (!(j.lower_limit > 0) || !(j.upper_limit > 0)) return std::nullopt;
  return MetricBand{j.baseline_median, j.lower_limit, j.upper_limit};
}

bool is_pair_key(const std::string& key) {
  const BenchmarkKey parts = BenchmarkKey::parse(key);
  return parts.tagged("src") && parts.tagged("dst");
}

std::string series_of(const std::string& key) {
  return BenchmarkKey::parse(key).without({"bytes"}).text();
}

std::vector<CurveGroup> curve_groups(const verdict::Comparison& c) {
  using Id = std::tuple<std::string, std::string, std::string, int>;
  std::map<Id, std::vector<const verdict::KeyComparison*>> groups;
  for (const verdict::KeyComparison& k : c.keys) {
    if (!is_pair_key(k.key)) groups[{k.family, k.backend, k.op, k.nranks}].push_back(&k);
  }
  std::vector<CurveGroup> out;
  std::set<std::string> ids;
  for (auto& [id, keys] : groups) {
    std::sort(keys.begin(), keys.end(),
              [](const verdict::KeyComparison* a, const verdict::KeyComparison* b) {
                const std::string sa = series_of(a->key);
                const std::string sb = series_of(b->key);
                return sa != sb ? sa < sb : a->bytes < b->bytes;
              });
    const auto& [family, backend, op, ranks] = id;
    CurveGroup g;
    g.id = slug(family + "-" + backend + "-" + op + "-" + std::to_string(ranks) + "r");
    while (!ids.insert(g.id).second) g.id += "-x";
    g.title = op + " (" + family + "/" + backend + ", " + std::to_string(ranks) +
              (ranks == 1 ? " rank)" : " ranks)");
    g.keys = keys;
    out.push_back(std::move(g));
  }
  return out;
}

std::string size_plot_svg(const CurveGroup& g, bool rate) {
  const Plotted p = rate ? rate_metric(g) : Plotted::time;
  const bool is_time = p == Plotted::time;
  const char* name = p == Plotted::busbw ? "busbw" : p == Plotted::algbw ? "algbw" : "time";
  svg::LinePlot plot;
  plot.id = g.id + (rate ? "-rate" : "-time");
  plot.css_class = rate ? "plot-rate plot-" + std::string(name) : "plot-time";
  plot.title = g.title + ": " + name + " vs message size";
  plot.x_label = "message size (log2)";
  plot.y_label = is_time ? "time per operation (log10)" : std::string(name) + " (GB/s)";
  plot.y_scale = is_time ? svg::ScaleKind::log10 : svg::ScaleKind::linear;
  plot.x_ticks = size_tick;
  if (is_time) plot.y_ticks = time_tick;
  const auto all_series = series_in(g);
  const bool single = all_series.size() == 1;
  for (std::size_t i = 0; i < all_series.size(); ++i) {
    const auto& [series, keys] = all_series[i];
    const std::string colour = kPalette[i % kPaletteSize];
    const std::string prefix = single ? "" : series_label(series) + " ";
    svg::Series now{prefix + "this run", "series-current", colour, {}, i >= kPaletteSize, true};
    svg::Series base{prefix + "baseline median", "series-baseline", colour, {}, true, false};
    svg::Band band{prefix + "judged band", "baseline-band", colour, {}};
    // The roofline that judged (harness/roofline), where it judged the plotted metric.
    svg::Series ceiling{
        prefix + "roofline ceiling", "roofline-ceiling", "#2ca02c", {}, true, false};
    svg::Series floor{prefix + "roofline floor", "roofline-floor", "#d62728", {}, true, false};
    for (const verdict::KeyComparison* k : keys) {
      const double x = static_cast<double>(k->bytes);
      if (k->roofline && k->roofline->ceiling_GBps > 0 && k->roofline->metric == name) {
        const roofline::RooflineFinding& r = *k->roofline;
        ceiling.points.push_back({x, r.ceiling_GBps, r.spec});
        if (r.floor) floor.points.push_back({x, *r.floor * r.ceiling_GBps, r.floor_source});
      }
      const std::optional<double> v = now_of(*k, p);
      const std::optional<double> b = baseline_of(*k, p);
      const KeyFigures f = key_figures(*k);
      std::string tip = k->key + "\n" + f.size + ": " +
                        (v ? verdict::format_metric(*v, is_time) : "not measured") +
                        (b ? " (baseline " + verdict::format_metric(*b, is_time) + ")" : "") +
                        "\n" + verdict::verdict_name(k->verdict) + ": " + k->reason;
      if (v) now.points.push_back({x, *v, tip});
      if (b) base.points.push_back({x, *b, ""});
      if (const auto bb = band_for(*k, p)) band.points.push_back({x, bb->low, bb->high});
      if (!k->changes.empty() || verdict::verdict_fails_gate(k->verdict)) {
        std::string what;
        for (const verdict::Change& c : k->changes) what += (what.empty() ? "" : ",") + c.what;
        const bool choice = !k->changes.empty() &&
                            std::all_of(k->changes.begin(), k->changes.end(), is_choice_change);
        const std::string css = k->changes.empty() ? "verdict-fail"
                                : choice           ? "algo-change"
                                                   : "transport-change";
        const double y = v ? *v : b.value_or(0);
        plot.markers.push_back(
            {x, y, what, verdict::verdict_name(k->verdict) + std::string(": ") + k->reason, css,
             k->changes.empty() ? "#d62728"
             : choice           ? "#ff7f0e"
                                : "#9467bd"});
      }
    }
    if (!band.points.empty()) plot.bands.push_back(std::move(band));
    if (!base.points.empty()) plot.series.push_back(std::move(base));
    if (!ceiling.points.empty()) plot.series.push_back(std::move(ceiling));
    if (!floor.points.empty()) plot.series.push_back(std::move(floor));
    plot.series.push_back(std::move(now));
  }
  return svg::render_line_plot(plot);
}

std::string trend_plot_svg(const CurveGroup& g, const std::vector<IndexedRun>& history,
                           std::size_t last) {
  const std::size_t first = last > 0 && history.size() > last ? history.size() - last : 0;
  const std::vector<IndexedRun> window(history.begin() + static_cast<std::ptrdiff_t>(first),
                                       history.end());
  std::vector<std::string> dates;
  // Runs of one day by time ("19:13:22"), else by day and minute ("11-29 19:13").
  const bool one_day =
      !window.empty() && std::all_of(window.begin(), window.end(), [&](const IndexedRun& r) {
        return r.started_at.size() >= 19 &&
               r.started_at.compare(0, 10, window.front().started_at, 0, 10) == 0;
      });
  for (const IndexedRun& r : window) {
    if (r.started_at.size() < 19)
      dates.push_back(r.run_id);
    else
      dates.push_back(one_day ? r.started_at.substr(11, 8)
                              : r.started_at.substr(5, 5) + " " + r.started_at.substr(11, 5));
  }
  svg::LinePlot plot;
  plot.id = g.id + "-trend";
  plot.css_class = "plot-trend";
  plot.title = g.title + ": last " + std::to_string(window.size()) + " runs";
  plot.x_label = one_day ? "run (start time, UTC, " + window.front().started_at.substr(0, 10) + ")"
                         : "run (start time, UTC)";
  plot.y_label = "performance / baseline median (up = better)";
  plot.x_scale = svg::ScaleKind::linear;
  plot.y_from_zero = false;
  plot.x_ticks = [dates](double x) {
    const long i = std::lround(x);
    return std::abs(x - static_cast<double>(i)) < 1e-6 && i >= 0 &&
                   static_cast<std::size_t>(i) < dates.size()
               ? dates[static_cast<std::size_t>(i)]
               : std::string();
  };
  plot.y_ticks = [](double y) { return fmt::format("{:.2f}", y); };
  bool any = false;
  std::size_t colour = 0;
  std::vector<TrendSeries> stepped;  // every plotted key's history, for the change-point markers
  for (const verdict::KeyComparison* k : g.keys) {
    const Plotted p = k->judgement
                          ? (k->judgement->metric == verdict::Metric::time_us      ? Plotted::time
                             : k->judgement->metric == verdict::Metric::busbw_GBps ? Plotted::busbw
                                                                                   : Plotted::algbw)
                      : k->busbw_now     ? Plotted::busbw
                      : k->algbw_now > 0 ? Plotted::algbw
                                         : Plotted::time;
    const HistoryMetric hm = p == Plotted::busbw   ? HistoryMetric::busbw
                             : p == Plotted::algbw ? HistoryMetric::algbw
                                                   : HistoryMetric::time;
    const KeyHistory h = key_history(window, k->key, hm, 0);
    if (h.points.size() < 2) continue;
    std::optional<double> base = baseline_of(*k, p);
    const bool relative_to_first = !base;
    if (!base) base = h.points.front().value;
    const bool higher_better = verdict::metric_higher_is_better(metric_of(p));
    svg::Series s;
    s.name = verdict::format_bytes(k->bytes) +
             (g.keys.size() > 8 ? " " + series_label(series_of(k->key)) : "") +
             (relative_to_first ? " (vs first run)" : "");
    s.css_class = "series-trend";
    s.colour = kPalette[colour % kPaletteSize];
    s.dashed = colour >= kPaletteSize;
    ++colour;
    for (const HistoryPoint& pt : h.points) {
      const std::size_t i = static_cast<std::size_t>(
          std::find_if(window.begin(), window.end(),
                       [&](const IndexedRun& r) { return r.run_id == pt.run_id; }) -
          window.begin());
      const double ratio = higher_better ? pt.value / *base : *base / pt.value;
      s.points.push_back({static_cast<double>(i), ratio,
                          k->key + "\n" + pt.run_id + " (" + pt.suite + "/" + pt.scenario +
                              "): " + verdict::format_metric(pt.value, p == Plotted::time) + " = " +
                              fmt::format("{:.3f}", ratio) + " x baseline"});
    }
    plot.series.push_back(std::move(s));
    stepped.push_back({k->key, h});
    any = true;
  }
  if (!any) return {};
  plot.vertical_markers = trend_change_point_markers(stepped, window);
  svg::Series one{"baseline", "series-reference", "#555555", {}, true, false};
  one.points = {{0, 1, ""}, {static_cast<double>(window.size() - 1), 1, ""}};
  plot.series.insert(plot.series.begin(), std::move(one));
  return svg::render_line_plot(plot);
}

std::vector<PairMatrix> pair_matrices(const verdict::Comparison& c) {
  struct Cells {
    std::set<std::string> src;
    std::set<std::string> dst;
    std::map<std::pair<std::string, std::string>, const verdict::KeyComparison*> at;
  };
  std::map<std::string, Cells> shapes;
  for (const verdict::KeyComparison& k : c.keys) {
    if (!is_pair_key(k.key)) continue;
    const BenchmarkKey parts = BenchmarkKey::parse(k.key);
    const std::string src = parts.tagged("src").value_or("");
    const std::string dst = parts.tagged("dst").value_or("");
    Cells& cells = shapes[parts.without({"src", "dst"}).text()];
    cells.src.insert(src);
    cells.dst.insert(dst);
    cells.at[{src, dst}] = &k;
  }
  // GPU indices sort as numbers ("10" after "9").
  const auto numeric = [](const std::set<std::string>& s) {
    std::vector<std::string> v(s.begin(), s.end());
    std::stable_sort(v.begin(), v.end(), [](const std::string& a, const std::string& b) {
      return a.size() != b.size() ? a.size() < b.size() : a < b;
    });
    return v;
  };
  std::vector<PairMatrix> out;
  std::size_t index = 0;
  for (const auto& [shape, cells] : shapes) {
    svg::HeatMap m;
    m.id = "pair-" + std::to_string(index++) + "-" + slug(shape);
    m.css_class = "pair-matrix";
    m.row_axis = "source GPU";
    m.col_axis = "destination GPU";
    const std::vector<std::string> srcs = numeric(cells.src);
    const std::vector<std::string> dsts = numeric(cells.dst);
    PairMatrix pm;
    std::string unit;
    for (const std::string& s : srcs) {
      m.row_labels.push_back("GPU " + s);
      std::vector<svg::HeatCell> row;
      for (const std::string& d : dsts) {
        svg::HeatCell cell;
        const auto it = cells.at.find({s, d});
        if (it != cells.at.end()) {
          const verdict::KeyComparison& k = *it->second;
          const bool rate = k.busbw_now || k.algbw_now > 0;
          const double v = k.busbw_now ? *k.busbw_now : rate ? k.algbw_now : k.time_us_now;
          unit = rate ? (k.busbw_now ? "busbw GB/s" : "GB/s") : "us";
          if (v > 0) cell.value = v;
          cell.text = v >= 100 ? fmt::format("{:.1f}", v) : fmt::format("{:.3g}", v);
          const KeyFigures f = key_figures(k);
          cell.tooltip = k.key + "\n" + verdict::verdict_name(k.verdict) + ": " + k.reason +
                         (f.baseline.empty() ? "" : "\nbaseline " + f.baseline + ", now " + f.now);
          for (const std::string& n : note_lines(k)) {
            cell.tooltip += "\n" + n;
            pm.notes.push_back(s + " -> " + d + ": " + n);
          }
          cell.flagged = verdict::verdict_fails_gate(k.verdict);
          cell.css_class = cell.flagged ? "cell-fail" : "cell-ok";
        }
        row.push_back(std::move(cell));
      }
      m.cells.push_back(std::move(row));
    }
    for (const std::string& d : dsts) m.col_labels.push_back("GPU " + d);
    // "p2p/ce/write/uni/1 GiB": the size as people say it, from the records' bytes (every cell
    // of one shape has the same size: the shape is the key without src and dst).
    const std::uint64_t shape_bytes = cells.at.begin()->second->bytes;
    std::string readable;
    for (const KeyPart& part : BenchmarkKey::parse(shape).parts()) {
      const bool size = part.tagged && part.name == "bytes";
      readable +=
          (readable.empty() ? "" : "/") + (size ? verdict::format_bytes(shape_bytes) : part.text());
    }
    pm.title = readable + (unit.empty() ? "" : " (" + unit + ")");
    m.title = pm.title;
    pm.svg = svg::render_heat_map(m);
    out.push_back(std::move(pm));
  }
  return out;
}

}  // namespace fabricgate::report
