// The SVG builder of the HTML report: scale positions (log2 sizes are evenly spaced), ticks, bands,
// markers, escaping of every text, and the empty plot.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>

#include "harness/report/svg_plot.hpp"

namespace fabricgate::report::svg {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

std::vector<double> attribute_values(const std::string& svg, const std::string& element,
                                     const std::string& attr) {
  std::vector<double> out;
  const std::regex re("<" + element + "[^>]*\\s" + attr + "=\"([-0-9.]+)\"");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator();
       ++it) {
    out.push_back(std::stod((*it)[1]));
  }
  return out;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1))
    ++n;
  return n;
}

TEST(report_SvgScale, Log2MapsPowersOfTwoEvenly) {
  const Scale s(ScaleKind::log2, 8, 1u << 30, 100, 400);
  EXPECT_DOUBLE_EQ(s(8), 100);
  EXPECT_DOUBLE_EQ(s(1u << 30), 400);
  // 8 B = 2^3 and 1 GiB = 2^30: 2^16.5 lies halfway.
  EXPECT_NEAR(s(std::pow(2.0, 16.5)), 250, 1e-9);
  EXPECT_NEAR(s(64) - s(8), s(512) - s(64), 1e-9);
  EXPECT_FALSE(s.can_show(0));
  EXPECT_FALSE(s.can_show(-1));
  EXPECT_FALSE(s.can_show(std::nan("")));
}

TEST(report_SvgScale, TicksArePowersOrNiceSteps) {
  const Scale sizes(ScaleKind::log2, 8, 1u << 30, 0, 1);
  const std::vector<double> t = sizes.ticks(8);
  ASSERT_FALSE(t.empty());
  EXPECT_LE(t.size(), 8u);
  EXPECT_DOUBLE_EQ(t.front(), 8);
  for (const double v : t) EXPECT_DOUBLE_EQ(std::log2(v), std::round(std::log2(v))) << v;

  EXPECT_EQ(Scale(ScaleKind::linear, 0, 100, 0, 1).ticks(5),
            (std::vector<double>{0, 20, 40, 60, 80, 100}));
  EXPECT_EQ(Scale(ScaleKind::log10, 1, 1000, 0, 1).ticks(6),
            (std::vector<double>{1, 10, 100, 1000}));
  // Inverted pixel range (SVG y grows downwards): larger values map higher up.
  const Scale y(ScaleKind::linear, 0, 10, 300, 20);
  EXPECT_GT(y(1), y(9));
}

LinePlot sizes_plot() {
  LinePlot p;
  p.id = "plot-1";
  p.title = "all_reduce";
  p.x_label = "size";
  p.y_label = "busbw";
  p.x_ticks = [](double v) { return std::to_string(static_cast<long long>(v)) + "B"; };
  Series s;
  s.name = "this run";
  s.css_class = "series-current";
  for (const double x : {8.0, 64.0, 512.0, 4096.0}) s.points.push_back({x, x / 8, "tip"});
  p.series.push_back(s);
  return p;
}

TEST(report_SvgLinePlot, PointsEvenlySpacedOnLog2AxisAndRisingValuesGoUp) {
  const std::string svg = render_line_plot(sizes_plot());
  const std::vector<double> cx = attribute_values(svg, "circle", "cx");
  const std::vector<double> cy = attribute_values(svg, "circle", "cy");
  ASSERT_EQ(cx.size(), 4u);
  EXPECT_NEAR(cx[1] - cx[0], cx[2] - cx[1], 0.15);
  EXPECT_NEAR(cx[2] - cx[1], cx[3] - cx[2], 0.15);
  EXPECT_GT(cx[1], cx[0]);
  EXPECT_GT(cy[0], cy[3]);  // larger busbw is drawn higher (smaller y)
  EXPECT_NE(svg.find(">8B</text>"), std::string::npos) << "x ticks use the formatter";
  EXPECT_NE(svg.find("id=\"plot-1\""), std::string::npos);
  EXPECT_NE(svg.find("<polyline"), std::string::npos);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_EQ(svg.substr(svg.size() - 6), "</svg>");
  EXPECT_EQ(svg.find("no data"), std::string::npos);
}

TEST(report_SvgLinePlot, BandMarkerAndLegend) {
  LinePlot p = sizes_plot();
  p.bands.push_back({"baseline ± tolerance",
                     "baseline-band",
                     "#2ca02c",
                     {{8, 0.9, 1.1}, {64, 7, 9}, {512, 60, 68}}});
  p.markers.push_back({64, 8, "proto", "proto {Simple} -> {LL128}", "algo-change", "#ff7f0e"});
  const std::string svg = render_line_plot(p);
  EXPECT_EQ(count(svg, "class=\"band baseline-band\""), 1u);
  EXPECT_NE(svg.find("class=\"marker algo-change\""), std::string::npos);
  EXPECT_NE(svg.find("proto {Simple} -&gt; {LL128}"), std::string::npos);
  EXPECT_NE(svg.find("class=\"legend\""), std::string::npos);
  EXPECT_NE(svg.find(">baseline ± tolerance</text>"), std::string::npos);

  LinePlot one = sizes_plot();
  one.bands.push_back(
      {"b", "single", "#000000", {{64, 7, 9}}});  // one size: a bar, not an empty polygon
  const std::string bar = render_line_plot(one);
  EXPECT_TRUE(
      std::regex_search(bar, std::regex("class=\"band single\" d=\"M[-0-9.]+,[-0-9.]+H[-0-9.]+V")));
}

TEST(report_SvgLinePlot, EveryTextIsEscaped) {
  LinePlot p = sizes_plot();
  p.title = "<script>alert(1)</script> & \"q\"";
  p.id = "a\"b";
  p.series[0].name = "<b>";
  p.series[0].points[0].tooltip = "x</title><script>";
  p.series[0].colour = "red\" onload=\"x";
  const std::string svg = render_line_plot(p);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_EQ(svg.find("<b>"), std::string::npos);
  EXPECT_EQ(svg.find("onload=\""), std::string::npos);
  EXPECT_NE(svg.find("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot;"),
            std::string::npos);
  EXPECT_NE(svg.find("id=\"a&quot;b\""), std::string::npos);
}

TEST(report_SvgLinePlot, EmptyAndUnplottableSeriesGiveAnEmptyFrame) {
  LinePlot empty;
  empty.id = "e";
  empty.series.push_back(Series{});
  const std::string svg = render_line_plot(empty);
  EXPECT_NE(svg.find("no data"), std::string::npos);
  EXPECT_EQ(svg.find("<polyline"), std::string::npos);
  EXPECT_EQ(svg.find("<circle"), std::string::npos);
  EXPECT_EQ(svg.substr(svg.size() - 6), "</svg>");

  LinePlot log_y = sizes_plot();
  log_y.y_scale = ScaleKind::log10;
  log_y.series[0].points.push_back({8192, 0, ""});  // 0 cannot be drawn on a log axis
  log_y.series[0].points.push_back({16384, std::nan(""), ""});
  EXPECT_EQ(count(render_line_plot(log_y), "<circle"), 4u);
}

TEST(report_SvgHeatMap, CellsColoursOutlinesAndEmptyCells) {
  HeatMap m;
  m.id = "pairs";
  m.title = "p2p/ce/write/uni <1 GiB>";
  m.row_labels = {"GPU 0", "GPU 1"};
  m.col_labels = {"GPU 0", "GPU 1"};
  HeatCell slow{100.0, "100.0", "0 -> 1", "cell-fail", true};
  HeatCell fast{400.0, "400.0", "1 -> 0", "cell-ok", false};
  m.cells = {{HeatCell{}, slow}, {fast}};  // short row padded with an empty cell
  const std::string svg = render_heat_map(m);
  EXPECT_EQ(count(svg, "<g class=\"cell "), 4u);
  EXPECT_EQ(count(svg, ">–</text>"), 2u);
  EXPECT_EQ(count(svg, "stroke=\"#d62728\""), 1u);
  EXPECT_NE(svg.find("fill=\"" + heat_colour(0.25) + "\""),
            std::string::npos);                                               // 100 of at most 400
  EXPECT_NE(svg.find("fill=\"" + heat_colour(1) + "\""), std::string::npos);  // the largest
  EXPECT_NE(svg.find("&lt;1 GiB&gt;"), std::string::npos);
  EXPECT_EQ(heat_colour(0), "#deebf7");
  EXPECT_EQ(heat_colour(1), "#08519c");
  EXPECT_EQ(heat_colour(2), heat_colour(1));
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::report::svg
