#include "harness/report/render.hpp"

#include <array>

#include "core/errors.hpp"
#include "core/nearest_name.hpp"
#include "core/text_escape.hpp"
#include "harness/report/html_report.hpp"
#include "harness/report/printable_comparison.hpp"
#include "harness/verdict/comparison_json.hpp"

namespace fabricgate::report {

ReportFormat parse_report_format(std::string_view name) {
  if (name == "console") return ReportFormat::console;
  if (name == "markdown") return ReportFormat::markdown;
  if (name == "junit") return ReportFormat::junit;
  if (name == "annotations") return ReportFormat::annotations;
  if (name == "json") return ReportFormat::json;
  if (name == "html") return ReportFormat::html;
  if (name == "ctrf") return ReportFormat::ctrf;
  static constexpr std::array<std::string_view, 7> kFormats{
      "console", "markdown", "junit", "annotations", "json", "html", "ctrf"};
  throw InputError("unknown report format \"" + std::string(name) + "\" (expected " +
                   names_text(kFormats) + ")" + did_you_mean(name, kFormats));
}

std::string render_json(const verdict::Comparison& c) {
  return verdict::comparison_to_json(c).dump(2) + "\n";
}

// Text formats render a printable copy (no control characters from input, strings cut) and never
// emit a line GitHub would run as a workflow command; annotations build theirs from that copy
// with GitHub's own escapes. JSON keeps the data exactly: its encoder escapes controls itself.
std::string render(const verdict::Comparison& original, ReportFormat format,
                   const RenderOptions& options) {
  if (format == ReportFormat::json) return render_json(original);
  if (format == ReportFormat::ctrf) return render_ctrf(original);  // JSON: its encoder escapes
  if (format == ReportFormat::annotations) return render_annotations(original, options);
  const verdict::Comparison c = printable_copy(original);
  switch (format) {
    case ReportFormat::console: return without_workflow_commands(render_console(c, options));
    case ReportFormat::markdown: return without_workflow_commands(render_markdown(c, options));
    case ReportFormat::junit: return without_workflow_commands(render_junit(c));
    case ReportFormat::annotations:
    case ReportFormat::json:
    case ReportFormat::ctrf: break;
    case ReportFormat::html:  // bands of judged keys, no trend
      return without_workflow_commands(render_html(c, HtmlInputs{}));
  }
  return {};
}

}  // namespace fabricgate::report
