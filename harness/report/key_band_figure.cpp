#include "harness/report/key_band_figure.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "core/text_escape.hpp"
#include "harness/report/key_figures.hpp"
#include "harness/report/svg_plot.hpp"
#include "harness/verdict/units_text.hpp"
#include "harness/verdict/verdict.hpp"

namespace fabricgate::report {

namespace {

std::string figure_id(const std::string& key) {
  std::string out = "band-";
  for (const char c : key) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    out += keep ? c : '-';
  }
  return out;
}

// The launches that judged the key, in order: the first, then the confirmations with a value.
std::vector<std::pair<std::string, double>> launches_of(const verdict::KeyComparison& k) {
  std::vector<std::pair<std::string, double>> out{{"first launch", k.judgement->current_median}};
  if (k.confirmation) {
    int n = 0;
    for (const verdict::ConfirmationResult& r : k.confirmation->later) {
      ++n;
      if (r.value && *r.value > 0) out.emplace_back(fmt::format("confirmation {}", n), *r.value);
    }
  }
  return out;
}

}  // namespace

std::string key_band_figure(const verdict::KeyComparison& k) {
  if (!k.judgement || k.judgement->lower_limit <= 0 || k.judgement->current_median <= 0) return "";
  const verdict::MetricJudgement& j = *k.judgement;
  const bool is_time = j.metric == verdict::Metric::time_us;
  const std::vector<std::pair<std::string, double>> launches = launches_of(k);
  const double last_x = static_cast<double>(launches.size());

  svg::LinePlot plot;
  plot.id = figure_id(k.key) + "-plot";
  plot.css_class = "plot-key-band";
  const KeyFigures f = key_figures(k);
  plot.title = f.size + " " + f.metric;
  plot.x_label = "launch (1: first, then confirmations)";
  plot.y_label = f.metric + " (" + verdict::metric_unit(j.metric) + ")";
  plot.x_scale = svg::ScaleKind::linear;
  plot.y_scale = svg::ScaleKind::linear;
  plot.y_from_zero = false;
  plot.width = 320;
  plot.height = 200;
  // Launches are whole numbers; the unit is in the axis label, so the ticks stay short.
  plot.x_ticks = [](double x) {
    return x == static_cast<double>(static_cast<long long>(x)) ? fmt::format("{:g}", x) : "";
  };
  plot.y_ticks = [](double y) { return fmt::format("{:.4g}", y); };
  svg::Band band;
  band.name = "judged band";
  band.css_class = "key-band";
  band.points = {{0.5, j.lower_limit, j.upper_limit}, {last_x + 0.5, j.lower_limit, j.upper_limit}};
  plot.bands.push_back(band);
  svg::Series centre;
  centre.name = j.reference == "fleet" ? "fleet centre" : "centre (" + j.reference + ")";
  centre.css_class = "key-centre";
  centre.colour = "#2ca02c";
  centre.dashed = true;
  centre.dots = false;
  centre.points = {{0.5, j.baseline_median, ""}, {last_x + 0.5, j.baseline_median, ""}};
  plot.series.push_back(centre);
  svg::Series measured;
  measured.name = "launches";
  measured.css_class = "key-launches";
  measured.colour = "#d62728";
  for (std::size_t i = 0; i < launches.size(); ++i) {
    measured.points.push_back(
        {static_cast<double>(i + 1), launches[i].second,
         launches[i].first + ": " + verdict::format_metric(launches[i].second, is_time)});
  }
  plot.series.push_back(measured);

  const std::string caption = std::string(verdict::verdict_name(k.verdict)) + " " + k.key + ": " +
                              f.change + " (" + f.metric + "), band " +
                              verdict::format_metric(j.lower_limit, is_time) + " to " +
                              verdict::format_metric(j.upper_limit, is_time) + ", centre " +
                              verdict::format_metric(j.baseline_median, is_time);
  return "<figure class=\"key-band-figure\" id=\"" + xml_escape(figure_id(k.key)) + "\">" +
         svg::render_line_plot(plot) + "<figcaption>" + xml_escape(caption) +
         "</figcaption></figure>";
}

}  // namespace fabricgate::report
