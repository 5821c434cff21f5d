#include "harness/report/render.hpp"

#include "harness/gate/comparison_json.hpp"
#include "harness/model/errors.hpp"
#include "harness/report/html_report.hpp"

namespace fabricgate::report {

ReportFormat parse_report_format(std::string_view name) {
  if (name == "console") return ReportFormat::console;
  if (name == "markdown") return ReportFormat::markdown;
  if (name == "junit") return ReportFormat::junit;
  if (name == "annotations") return ReportFormat::annotations;
  if (name == "json") return ReportFormat::json;
  if (name == "html") return ReportFormat::html;
  throw InputError("unknown report format \"" + std::string(name) +
                   "\" (expected console, markdown, junit, annotations, json or html)");
}

std::string render_json(const gate::Comparison& c) { return gate::comparison_to_json(c).dump(2) + "\n"; }

std::string render(const gate::Comparison& c, ReportFormat format, const RenderOptions& options) {
  switch (format) {
    case ReportFormat::console: return render_console(c, options);
    case ReportFormat::markdown: return render_markdown(c, options);
    case ReportFormat::junit: return render_junit(c);
    case ReportFormat::annotations: return render_annotations(c, options);
    case ReportFormat::json: return render_json(c);
    case ReportFormat::html: return render_html(c, HtmlInputs{});  // bands of judged keys, no trend
  }
  return {};
}

}  // namespace fabricgate::report
