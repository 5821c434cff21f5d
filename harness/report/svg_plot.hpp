#pragma once
// A small builder for the inline SVG figures of the HTML report: line plots (log2 size axis,
// linear or log10 value axis, shaded bands, marked points) and heat maps. It knows nothing about
// fabricgate's data: callers pass numbers and labels, every text is XML-escaped here, and colours
// are attributes so a figure needs no stylesheet, script or font from anywhere.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace fabricgate::report::svg {

enum class ScaleKind { linear, log2, log10 };

// Maps a data interval onto a pixel interval. Log scales show only positive values.
class Scale {
 public:
  Scale(ScaleKind kind, double data_lo, double data_hi, double pixel_lo, double pixel_hi);
  bool can_show(double value) const;  // false for <= 0 on log scales and for non-finite values
  double operator()(double value) const;
  // Tick positions inside the domain: powers of two (log2), of ten (log10), or 1/2/5 steps.
  std::vector<double> ticks(std::size_t max_ticks) const;
  double data_lo() const { return lo_; }
  double data_hi() const { return hi_; }

 private:
  double transform(double value) const;
  ScaleKind kind_;
  double lo_;
  double hi_;
  double pixel_lo_;
  double pixel_hi_;
};

struct Point {
  double x = 0;
  double y = 0;
  std::string tooltip;  // shown on hover (<title>)
};

struct Series {
  std::string name;       // legend text
  std::string css_class;  // e.g. "series-current"
  std::string colour = "#1f77b4";
  std::vector<Point> points;  // drawn in this order
  bool dashed = false;
  bool dots = true;  // a circle at each point
};

struct BandPoint {
  double x = 0;
  double low = 0;
  double high = 0;
};

// A shaded area between low and high over x (the baseline median +- tolerance).
struct Band {
  std::string name;
  std::string css_class;
  std::string colour = "#2ca02c";
  std::vector<BandPoint> points;  // ascending x
};

// A point that needs the reader's attention (e.g. NCCL changed its algorithm there).
struct Marker {
  double x = 0;
  double y = 0;
  std::string label;  // short text drawn next to the marker
  std::string tooltip;
  std::string css_class;
  std::string colour = "#d62728";
};

// A vertical line across the plot at x (e.g. a change point in a trend: the first run on a new
// level), its label drawn at the top, its tooltip on hover.
struct VerticalMarker {
  double x = 0;
  std::string label;
  std::string tooltip;
  std::string css_class;
  std::string colour = "#9467bd";
};

using TickFormatter = std::function<std::string(double)>;

struct LinePlot {
  std::string id;  // element id, unique in the page
  std::string css_class;
  std::string title;
  std::string x_label;
  std::string y_label;
  ScaleKind x_scale = ScaleKind::log2;
  ScaleKind y_scale = ScaleKind::linear;
  bool y_from_zero = true;  // linear y: include 0 so bars of bandwidth are not exaggerated
  TickFormatter x_ticks;    // empty: %g
  TickFormatter y_ticks;
  int width = 640;
  int height = 340;
  std::vector<Band> bands;
  std::vector<Series> series;
  std::vector<Marker> markers;
  std::vector<VerticalMarker> vertical_markers;
};

std::string render_line_plot(const LinePlot& plot);

struct HeatCell {
  std::optional<double> value;  // absent: drawn grey with "–"
  std::string text;             // printed in the cell (e.g. "396.6")
  std::string tooltip;
  std::string css_class;  // e.g. "cell-fail" (also drawn with a red outline)
  bool flagged = false;
};

// Cells are shaded by value / largest value (min-max only when a value is negative).
struct HeatMap {
  std::string id;
  std::string css_class;
  std::string title;
  std::string row_axis;  // e.g. "source GPU"
  std::string col_axis;  // e.g. "destination GPU"
  std::vector<std::string> row_labels;
  std::vector<std::string> col_labels;
  std::vector<std::vector<HeatCell>> cells;  // [row][col]; short rows are padded with empty cells
  int cell_width = 76;
  int cell_height = 40;
};

std::string render_heat_map(const HeatMap& map);

// "#rrggbb" between the light and the dark end of the heat map's blue scale; t in [0, 1].
std::string heat_colour(double t);

}  // namespace fabricgate::report::svg
