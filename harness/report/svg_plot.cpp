#include "harness/report/svg_plot.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "core/text_escape.hpp"

namespace fabricgate::report::svg {

namespace {

constexpr double kPad = 0.04;  // share of the axis left empty at each end, so edge points show

std::string num(double v) { return fmt::format("{:.1f}", v); }

std::string plain_tick(double v) { return fmt::format("{:g}", v); }

std::string attr(const std::string& name, const std::string& value) {
  return " " + name + "=\"" + xml_escape(value) + "\"";
}

std::string title_element(const std::string& tooltip) {
  return tooltip.empty() ? "" : "<title>" + xml_escape(tooltip) + "</title>";
}

std::string text(double x, double y, const std::string& content, const std::string& extra = "") {
  return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\"" + extra + ">" + xml_escape(content) +
         "</text>";
}

// Nice 1/2/5 x 10^k step for about `count` intervals over `span`.
double nice_step(double span, std::size_t count) {
  const double raw = span / static_cast<double>(std::max<std::size_t>(count, 1));
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0}) {
    if (raw <= m * magnitude) return m * magnitude;
  }
  return 10 * magnitude;
}

struct Domain {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  void add(double v, ScaleKind kind) {
    if (!std::isfinite(v) || (kind != ScaleKind::linear && v <= 0)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  bool empty() const { return lo > hi; }
};

// Widens a domain so that a single value or a flat line still spans the axis.
std::pair<double, double> padded(Domain d, ScaleKind kind, bool from_zero) {
  if (d.empty()) return kind == ScaleKind::linear ? std::pair{0.0, 1.0} : std::pair{1.0, 10.0};
  if (kind == ScaleKind::linear) {
    if (from_zero) d.lo = std::min(d.lo, 0.0);
    const double span = d.hi - d.lo > 0 ? d.hi - d.lo : std::max(std::abs(d.hi), 1.0);
    return {from_zero && d.lo >= 0 ? d.lo : d.lo - kPad * span, d.hi + kPad * span};
  }
  const double base = kind == ScaleKind::log2 ? 2.0 : 10.0;
  const double lo = std::log(d.lo) / std::log(base);
  const double hi = std::log(d.hi) / std::log(base);
  const double span = hi - lo > 0 ? hi - lo : 1.0;
  return {std::pow(base, lo - kPad * span - (hi > lo ? 0 : 0.5)),
          std::pow(base, hi + kPad * span + (hi > lo ? 0 : 0.5))};
}

}  // namespace

Scale::Scale(ScaleKind kind, double data_lo, double data_hi, double pixel_lo, double pixel_hi)
    : kind_(kind), lo_(data_lo), hi_(data_hi), pixel_lo_(pixel_lo), pixel_hi_(pixel_hi) {}

bool Scale::can_show(double value) const {
  return std::isfinite(value) && (kind_ == ScaleKind::linear || value > 0);
}

double Scale::transform(double value) const {
  switch (kind_) {
    case ScaleKind::log2: return std::log2(value);
    case ScaleKind::log10: return std::log10(value);
    case ScaleKind::linear: break;
  }
  return value;
}

double Scale::operator()(double value) const {
  const double a = transform(lo_);
  const double b = transform(hi_);
  const double t = b > a ? (transform(value) - a) / (b - a) : 0.5;
  return pixel_lo_ + t * (pixel_hi_ - pixel_lo_);
}

std::vector<double> Scale::ticks(std::size_t max_ticks) const {
  std::vector<double> out;
  if (!(hi_ > lo_) || max_ticks == 0) return out;
  if (kind_ == ScaleKind::linear) {
    const double step = nice_step(hi_ - lo_, max_ticks);
    for (double v = std::ceil(lo_ / step) * step; v <= hi_ + step * 1e-9; v += step) {
      out.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
    }
    return out;
  }
  const double base = kind_ == ScaleKind::log2 ? 2.0 : 10.0;
  const int first = static_cast<int>(std::ceil(transform(lo_) - 1e-9));
  const int last = static_cast<int>(std::floor(transform(hi_) + 1e-9));
  const int count = last - first + 1;
  if (count <= 0) return out;
  const int stride = (count + static_cast<int>(max_ticks) - 1) / static_cast<int>(max_ticks);
  for (int e = first; e <= last; e += stride) out.push_back(std::pow(base, e));
  return out;
}

namespace {

// The data's extent on both axes: every series point, band edge and marker.
std::pair<Domain, Domain> data_domains(const LinePlot& p) {
  Domain xs;
  Domain ys;
  for (const Series& s : p.series) {
    for (const Point& pt : s.points) {
      xs.add(pt.x, p.x_scale);
      ys.add(pt.y, p.y_scale);
    }
  }
  for (const Band& b : p.bands) {
    for (const BandPoint& bp : b.points) {
      xs.add(bp.x, p.x_scale);
      ys.add(bp.low, p.y_scale);
      ys.add(bp.high, p.y_scale);
    }
  }
  for (const Marker& m : p.markers) {
    xs.add(m.x, p.x_scale);
    ys.add(m.y, p.y_scale);
  }
  return {xs, ys};
}

// Each legend entry is drawn as what it labels: a shaded box for a band, a (dashed) line for a
// series. Entries wrap under the x label in rows; the plot area shrinks to make room.
struct LegendEntry {
  std::string text;
  std::string colour;
  bool band;
  bool dashed;
};

struct Legend {
  std::vector<LegendEntry> entries;
  std::vector<std::vector<std::size_t>> rows{1};
  double height = 0;
};

double legend_entry_width(const LegendEntry& e) {
  return 30 + 6.5 * static_cast<double>(e.text.size());
}

Legend lay_out_legend(const LinePlot& p, double available_width) {
  Legend legend;
  for (const Band& b : p.bands)
    if (!b.name.empty()) legend.entries.push_back({b.name, b.colour, true, false});
  for (const Series& s : p.series)
    if (!s.name.empty()) legend.entries.push_back({s.name, s.colour, false, s.dashed});
  double row_width = 0;
  for (std::size_t i = 0; i < legend.entries.size(); ++i) {
    const double w = legend_entry_width(legend.entries[i]);
    if (row_width + w > available_width && !legend.rows.back().empty()) {
      legend.rows.emplace_back();
      row_width = 0;
    }
    legend.rows.back().push_back(i);
    row_width += w;
  }
  legend.height = legend.entries.empty() ? 0 : 16.0 * static_cast<double>(legend.rows.size()) + 4;
  return legend;
}

// Where the plot area lies in the picture, and the scales that map data into it.
struct Frame {
  double left = 70;
  double right = 16;
  double top = 30;
  double plot_bottom = 0;
  double plot_right = 0;
  Scale sx;
  Scale sy;
};

Frame make_frame(const LinePlot& p, const Domain& xs, const Domain& ys, double legend_height) {
  constexpr double kLeft = 70;
  constexpr double kRight = 16;
  constexpr double kTop = 30;
  const double plot_bottom = p.height - (44 + legend_height);
  const double plot_right = p.width - kRight;
  const auto [x_lo, x_hi] = padded(xs, p.x_scale, false);
  const auto [y_lo, y_hi] = padded(ys, p.y_scale, p.y_from_zero);
  return Frame{kLeft,
               kRight,
               kTop,
               plot_bottom,
               plot_right,
               Scale(p.x_scale, x_lo, x_hi, kLeft, plot_right),
               Scale(p.y_scale, y_lo, y_hi, plot_bottom, kTop)};
}

// The <svg> element's opening, background and title.
std::string svg_head(const LinePlot& p, const Frame& f) {
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\"" + attr("id", p.id) +
                    attr("class", "plot " + p.css_class) + " width=\"" + std::to_string(p.width) +
                    "\" height=\"" + std::to_string(p.height) + "\" viewBox=\"0 0 " +
                    std::to_string(p.width) + " " + std::to_string(p.height) +
                    "\" role=\"img\" font-family=\"sans-serif\" font-size=\"11\">";
  out += title_element(p.title);
  out += "<rect x=\"0\" y=\"0\" width=\"" + std::to_string(p.width) + "\" height=\"" +
         std::to_string(p.height) + "\" fill=\"#ffffff\"/>";
  out += text(f.left, 18, p.title, " font-size=\"13\" font-weight=\"bold\" fill=\"#222\"");
  return out;
}

// Axes, grid lines, tick labels and axis labels.
std::string axes(const LinePlot& p, const Frame& f) {
  const TickFormatter fx = p.x_ticks ? p.x_ticks : TickFormatter(plain_tick);
  const TickFormatter fy = p.y_ticks ? p.y_ticks : TickFormatter(plain_tick);
  std::string out = "<g class=\"axes\" stroke=\"#999\">";
  out += "<line x1=\"" + num(f.left) + "\" y1=\"" + num(f.plot_bottom) + "\" x2=\"" +
         num(f.plot_right) + "\" y2=\"" + num(f.plot_bottom) + "\"/>";
  out += "<line x1=\"" + num(f.left) + "\" y1=\"" + num(f.top) + "\" x2=\"" + num(f.left) +
         "\" y2=\"" + num(f.plot_bottom) + "\"/>";
  out += "</g><g class=\"x-ticks\" fill=\"#444\" text-anchor=\"middle\">";
  for (const double t : f.sx.ticks(8)) {
    out += "<line x1=\"" + num(f.sx(t)) + "\" y1=\"" + num(f.plot_bottom) + "\" x2=\"" +
           num(f.sx(t)) + "\" y2=\"" + num(f.plot_bottom + 4) + "\" stroke=\"#999\"/>" +
           text(f.sx(t), f.plot_bottom + 16, fx(t));
  }
  out += "</g><g class=\"y-ticks\" fill=\"#444\" text-anchor=\"end\">";
  for (const double t : f.sy.ticks(6)) {
    out += "<line x1=\"" + num(f.left) + "\" y1=\"" + num(f.sy(t)) + "\" x2=\"" +
           num(f.plot_right) + "\" y2=\"" + num(f.sy(t)) + "\" stroke=\"#eee\"/>" +
           text(f.left - 6, f.sy(t) + 4, fy(t));
  }
  out += "</g>";
  out += text((f.left + f.plot_right) / 2, f.plot_bottom + 32, p.x_label,
              " class=\"x-label\" text-anchor=\"middle\" fill=\"#222\"");
  out += text(14, (f.top + f.plot_bottom) / 2, p.y_label,
              " class=\"y-label\" text-anchor=\"middle\" fill=\"#222\" transform=\"rotate(-90 14 " +
                  num((f.top + f.plot_bottom) / 2) + ")\"");
  return out;
}

std::string band_path(const Band& b, const Frame& f) {
  std::vector<BandPoint> pts;
  for (const BandPoint& bp : b.points) {
    if (f.sx.can_show(bp.x) && f.sy.can_show(bp.low) && f.sy.can_show(bp.high)) pts.push_back(bp);
  }
  if (pts.empty()) return "";
  std::string d;
  if (pts.size() == 1) {  // one size: a short bar, since a polygon over one x has no area
    const double x = f.sx(pts[0].x);
    d = "M" + num(x - 4) + "," + num(f.sy(pts[0].high)) + "H" + num(x + 4) + "V" +
        num(f.sy(pts[0].low)) + "H" + num(x - 4) + "Z";
  } else {
    for (std::size_t i = 0; i < pts.size(); ++i)
      d += (i ? "L" : "M") + num(f.sx(pts[i].x)) + "," + num(f.sy(pts[i].high));
    for (std::size_t i = pts.size(); i-- > 0;)
      d += "L" + num(f.sx(pts[i].x)) + "," + num(f.sy(pts[i].low));
    d += "Z";
  }
  return "<path" + attr("class", "band " + b.css_class) + " d=\"" + d + "\"" +
         attr("fill", b.colour) + " fill-opacity=\"0.22\"" + attr("stroke", b.colour) +
         " stroke-opacity=\"0.5\">" + title_element(b.name) + "</path>";
}

std::string series_group(const Series& s, const Frame& f) {
  std::string out = "<g" + attr("class", "series " + s.css_class) + attr("stroke", s.colour) +
                    attr("fill", s.colour) + ">";
  std::string line;
  for (const Point& pt : s.points) {
    if (f.sx.can_show(pt.x) && f.sy.can_show(pt.y))
      line += (line.empty() ? "" : " ") + num(f.sx(pt.x)) + "," + num(f.sy(pt.y));
  }
  if (!line.empty()) {
    out += "<polyline points=\"" + line + "\" fill=\"none\" stroke-width=\"2\"" +
           (s.dashed ? " stroke-dasharray=\"5,4\"" : "") + "/>";
  }
  if (s.dots) {
    for (const Point& pt : s.points) {
      if (!f.sx.can_show(pt.x) || !f.sy.can_show(pt.y)) continue;
      out += "<circle cx=\"" + num(f.sx(pt.x)) + "\" cy=\"" + num(f.sy(pt.y)) + "\" r=\"3\">" +
             title_element(pt.tooltip) + "</circle>";
    }
  }
  return out + "</g>";
}

std::string marker_group(const Marker& m, const Frame& f) {
  if (!f.sx.can_show(m.x) || !f.sy.can_show(m.y)) return "";
  const double x = f.sx(m.x);
  const double y = f.sy(m.y);
  return "<g" + attr("class", "marker " + m.css_class) + attr("fill", m.colour) + ">" +
         title_element(m.tooltip) + "<path d=\"M" + num(x) + "," + num(y - 7) + "L" + num(x + 6) +
         "," + num(y + 4) + "L" + num(x - 6) + "," + num(y + 4) +
         "Z\" stroke=\"#fff\" stroke-width=\"1\"/>" +
         text(x + 8, y - 6, m.label, " font-size=\"10\"") + "</g>";
}

std::string vertical_marker_group(const VerticalMarker& m, const Frame& f) {
  if (!f.sx.can_show(m.x)) return "";
  const double x = f.sx(m.x);
  return "<g" + attr("class", "vertical-marker " + m.css_class) + attr("fill", m.colour) + ">" +
         title_element(m.tooltip) + "<line x1=\"" + num(x) + "\" y1=\"" + num(f.top) + "\" x2=\"" +
         num(x) + "\" y2=\"" + num(f.plot_bottom) + "\"" + attr("stroke", m.colour) +
         " stroke-width=\"1.5\" stroke-dasharray=\"4,3\"/>" +
         text(x + 3, f.top + 10, m.label, " font-size=\"10\"") + "</g>";
}

std::string legend_group(const Legend& legend, const Frame& f) {
  if (legend.entries.empty()) return "";
  std::string out = "<g class=\"legend\" fill=\"#222\">";
  double y = f.plot_bottom + 50;
  for (const auto& row : legend.rows) {
    double x = f.left;
    for (const std::size_t i : row) {
      const LegendEntry& e = legend.entries[i];
      if (e.band) {
        out += "<rect x=\"" + num(x) + "\" y=\"" + num(y - 9) + "\" width=\"20\" height=\"10\"" +
               attr("fill", e.colour) + " fill-opacity=\"0.22\"" + attr("stroke", e.colour) + "/>";
      } else {
        out += "<line x1=\"" + num(x) + "\" y1=\"" + num(y - 4) + "\" x2=\"" + num(x + 20) +
               "\" y2=\"" + num(y - 4) + "\"" + attr("stroke", e.colour) + " stroke-width=\"2\"" +
               (e.dashed ? " stroke-dasharray=\"5,4\"" : "") + "/>";
      }
      out += text(x + 24, y, e.text);
      x += legend_entry_width(e);
    }
    y += 16;
  }
  return out + "</g>";
}

}  // namespace

std::string render_line_plot(const LinePlot& p) {
  const auto [xs, ys] = data_domains(p);
  const Legend legend = lay_out_legend(p, p.width - 70.0 - 16.0);
  const Frame f = make_frame(p, xs, ys, legend.height);
  std::string out = svg_head(p, f) + axes(p, f);
  if (xs.empty() || ys.empty()) {
    out += text((f.left + f.plot_right) / 2, (f.top + f.plot_bottom) / 2, "no data",
                " class=\"no-data\" text-anchor=\"middle\" fill=\"#888\" font-size=\"14\"");
  }
  for (const Band& b : p.bands) out += band_path(b, f);
  for (const Series& s : p.series) out += series_group(s, f);
  for (const Marker& m : p.markers) out += marker_group(m, f);
  for (const VerticalMarker& m : p.vertical_markers) out += vertical_marker_group(m, f);
  return out + legend_group(legend, f) + "</svg>";
}

std::string heat_colour(double t) {
  t = std::isfinite(t) ? std::clamp(t, 0.0, 1.0) : 0.0;
  // From #deebf7 (light) to #08519c (dark): a blue ramp that stays readable for colour-blind eyes.
  const auto mix = [t](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * t)); };
  return fmt::format("#{:02x}{:02x}{:02x}", mix(0xde, 0x08), mix(0xeb, 0x51), mix(0xf7, 0x9c));
}

std::string render_heat_map(const HeatMap& m) {
  const std::size_t rows = m.row_labels.size();
  const std::size_t cols = m.col_labels.size();
  double lo = std::numeric_limits<double>::infinity();
  double hi = -lo;
  for (const auto& row : m.cells) {
    for (const HeatCell& c : row) {
      if (c.value && std::isfinite(*c.value)) {
        lo = std::min(lo, *c.value);
        hi = std::max(hi, *c.value);
      }
    }
  }
  const double left = 96;
  const double top = 50;
  // Wide enough for the title (about 7 px per character at 12 px bold).
  const int width = std::max(static_cast<int>(left) + static_cast<int>(cols) * m.cell_width + 16,
                             static_cast<int>(8 + 7.2 * static_cast<double>(m.title.size())));
  const int height = static_cast<int>(top) + static_cast<int>(rows) * m.cell_height + 16;
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\"" + attr("id", m.id) +
                    attr("class", "heatmap " + m.css_class) + " width=\"" + std::to_string(width) +
                    "\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 " +
                    std::to_string(width) + " " + std::to_string(height) +
                    "\" role=\"img\" font-family=\"sans-serif\" font-size=\"11\">";
  out += title_element(m.title);
  out += "<rect x=\"0\" y=\"0\" width=\"" + std::to_string(width) + "\" height=\"" +
         std::to_string(height) + "\" fill=\"#ffffff\"/>";
  out += text(4, 14, m.title, " font-size=\"12\" font-weight=\"bold\" fill=\"#222\"");
  out += text(left + static_cast<double>(cols * m.cell_width) / 2, 30, m.col_axis,
              " class=\"col-axis\" text-anchor=\"middle\" fill=\"#444\"");
  out += text(4, top - 4, m.row_axis, " class=\"row-axis\" fill=\"#444\"");
  for (std::size_t c = 0; c < cols; ++c) {
    out += text(left + (static_cast<double>(c) + 0.5) * m.cell_width, top - 6, m.col_labels[c],
                " text-anchor=\"middle\" fill=\"#222\"");
  }
  for (std::size_t r = 0; r < rows; ++r) {
    const double y = top + static_cast<double>(r * m.cell_height);
    out += text(left - 6, y + m.cell_height / 2.0 + 4, m.row_labels[r],
                " text-anchor=\"end\" fill=\"#222\"");
    for (std::size_t c = 0; c < cols; ++c) {
      const HeatCell empty;
      const HeatCell& cell = r < m.cells.size() && c < m.cells[r].size() ? m.cells[r][c] : empty;
      const double x = left + static_cast<double>(c * m.cell_width);
      const bool has = cell.value && std::isfinite(*cell.value);
      // Shade by the share of the largest value, not by min-max: two pairs at 780.8 and 781.1
      // GB/s must look alike; a pair at half the rate must look lighter.
      const double t = !has      ? 0
                       : lo >= 0 ? (hi > 0 ? *cell.value / hi : 0)
                                 : (hi > lo ? (*cell.value - lo) / (hi - lo) : 0.6);
      const std::string fill = has ? heat_colour(t) : "#e6e6e6";
      out += "<g" + attr("class", "cell " + cell.css_class) + ">" + title_element(cell.tooltip) +
             "<rect x=\"" + num(x + 1) + "\" y=\"" + num(y + 1) + "\" width=\"" +
             std::to_string(m.cell_width - 2) + "\" height=\"" + std::to_string(m.cell_height - 2) +
             "\"" + attr("fill", fill) +
             (cell.flagged ? " stroke=\"#d62728\" stroke-width=\"3\"" : "") + "/>" +
             text(x + m.cell_width / 2.0, y + m.cell_height / 2.0 + 4, has ? cell.text : "–",
                  std::string(" text-anchor=\"middle\" fill=\"") +
                      (has && t > 0.55 ? "#ffffff" : "#222") + "\"") +
             "</g>";
    }
  }
  return out + "</svg>";
}

}  // namespace fabricgate::report::svg
