// Escaping: any bytes as a benchmark key, a run message and a host name in a Comparison, rendered
// by every text format. Invariants (docs/DESIGN.md "Output from input data"): no control
// character but newline/tab in console, markdown and JUnit output; no line that starts (after
// blanks) with "::" except in the annotations format, whose data lines carry no raw CR/LF;
// printable() output is bounded and free of controls.
#include <string>

#include "core/text_escape.hpp"
#include "fuzz/fuzz_common.hpp"
#include "harness/report/render.hpp"
#include "harness/verdict/comparison.hpp"

namespace {

// `controls_allowed`: only the workflow-command rule (without_workflow_commands alone does not
// escape controls; the renderers do both).
void require_printable_lines(const std::string& out, bool workflow_commands_allowed,
                             bool controls_allowed = false) {
  bool line_start = true;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto c = static_cast<unsigned char>(out[i]);
    if (!controls_allowed && c < 0x20 && c != '\n' && c != '\t') __builtin_trap();
    if (line_start && c == ':' && i + 1 < out.size() && out[i + 1] == ':' &&
        !workflow_commands_allowed)
      __builtin_trap();
    if (c == '\n' || c == '\r')
      line_start = true;
    else if (c != ' ' && c != '\t')
      line_start = false;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace fr = fabricgate::report;
  const std::string text(fabricgate::fuzz::as_text(data, size));
  const std::string shown = fr::printable(text);
  if (shown.size() > 4 * fr::kMaxShownBytes + 64) __builtin_trap();
  for (const char c : shown) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      __builtin_trap();  // one line, no controls
  }
  for (const char c : fr::annotation_data(text)) {
    if (c == '\n' || c == '\r') __builtin_trap();
  }
  require_printable_lines(fr::without_workflow_commands(text + "\n" + text), false, true);

  fabricgate::verdict::Comparison c;
  c.run_id = text;
  c.platform = "fuzz";
  c.incomplete_reason = text;
  c.run_complete = size % 2 == 0;
  c.warnings.push_back(text);
  fabricgate::verdict::KeyComparison k;
  k.key = text;
  k.reason = text;
  k.verdict = fabricgate::verdict::Verdict::invalid;
  k.notes.push_back({"P01", "error", text});
  c.keys.push_back(k);
  c.cluster_findings.push_back({"SLOW-PAIR", true, text, text, text, ""});
  for (const auto format :
       {fr::ReportFormat::console, fr::ReportFormat::markdown, fr::ReportFormat::junit}) {
    require_printable_lines(fr::render(c, format, fr::RenderOptions{}), false);
  }
  const std::string annotations = fr::render(c, fr::ReportFormat::annotations, fr::RenderOptions{});
  require_printable_lines(annotations, true);
  // Every annotation line is one the renderer made: "::error title=" or "::warning title=".
  std::size_t pos = 0;
  while (pos < annotations.size()) {
    const std::size_t end = annotations.find('\n', pos);
    const std::string line = annotations.substr(pos, end - pos);
    if (line.rfind("::error title=", 0) != 0 && line.rfind("::warning title=", 0) != 0)
      __builtin_trap();
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  return 0;
}
