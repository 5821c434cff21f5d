#include "harness/report/fingerprint_changes_report.hpp"

#include "core/text_escape.hpp"

namespace fabricgate::report {

namespace {

constexpr std::size_t kConsoleRows = 30;

std::string shown(const std::string& value) { return value.empty() ? "(unset)" : value; }

}  // namespace

std::string fingerprint_changes_console(const FingerprintChangesView& v) {
  if (!v.note.empty()) return "what changed: " + printable(v.note) + "\n";
  if (v.changes.empty()) return std::string("what changed: ") + kNoFingerprintDifference + "\n";
  std::string out = "WHAT CHANGED (" + std::to_string(v.changes.size()) + " fingerprint field" +
                    (v.changes.size() == 1 ? "" : "s") + ", " + v.before_label + " -> " +
                    v.after_label + "):\n";
  for (std::size_t i = 0; i < v.changes.size() && i < kConsoleRows; ++i) {
    const verdict::Change& c = v.changes[i];
    out += "  " + printable(c.what) + ": " + printable(shown(c.before)) + " -> " +
           printable(shown(c.after)) + "\n";
  }
  if (v.changes.size() > kConsoleRows) {
    out += "  (" + std::to_string(v.changes.size() - kConsoleRows) +
           " more fields; use --format json)\n";
  }
  return out;
}

std::string fingerprint_changes_markdown(const FingerprintChangesView& v) {
  std::string out = "### " + markdown_cell(v.title) + "\n\n";
  if (!v.note.empty()) return out + markdown_cell(v.note) + ".\n\n";
  if (v.changes.empty()) return out + "The fingerprints show " + kNoFingerprintDifference + ".\n\n";
  out += "| field | " + markdown_cell(v.before_label) + " | " + markdown_cell(v.after_label) +
         " |\n|---|---|---|\n";
  for (const verdict::Change& c : v.changes) {
    out += "| " + markdown_cell(c.what) + " | " + markdown_cell(shown(c.before)) + " | " +
           markdown_cell(shown(c.after)) + " |\n";
  }
  return out + "\n";
}

std::string fingerprint_changes_html(const FingerprintChangesView& v) {
  std::string out = "<section id=\"what-changed\"><h2>" + xml_escape(v.title) + "</h2>";
  if (!v.note.empty()) return out + "<p>" + xml_escape(v.note) + ".</p></section>\n";
  if (v.changes.empty())
    return out + "<p>The fingerprints show " + kNoFingerprintDifference + ".</p></section>\n";
  out += "<table class=\"fingerprint-changes\"><tr><th>field</th><th>" +
         xml_escape(v.before_label) + "</th><th>" + xml_escape(v.after_label) + "</th></tr>";
  for (const verdict::Change& c : v.changes) {
    out += "<tr><td>" + xml_escape(c.what) + "</td><td>" + xml_escape(shown(c.before)) +
           "</td><td class=\"change\">" + xml_escape(shown(c.after)) + "</td></tr>";
  }
  return out + "</table></section>\n";
}

}  // namespace fabricgate::report
