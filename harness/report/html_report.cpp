// The HTML page around the figures (html_figures.cpp). Reading order: the verdict, then each
// failing or ambiguous key's launches against its band (key_band_figure.hpp), the failing keys'
// table, versions, then per collective the curves and the numbers.
#include "harness/report/html_report.hpp"

#include <fmt/format.h>

#include "core/text_escape.hpp"
#include "harness/report/fingerprint_changes_report.hpp"
#include "harness/report/html_page_head.hpp"
#include "harness/report/key_band_figure.hpp"
#include "harness/report/key_figures.hpp"
#include "harness/report/rank_table.hpp"
#include "harness/verdict/units_text.hpp"
#include "harness/verdict/verdict_table.hpp"

namespace fabricgate::report {

namespace {

std::string esc(const std::string& s) { return xml_escape(s); }

// The report's own rules, after the shared ones (html_page_head.cpp).
constexpr const char* kStyles = R"(h3{font-size:15px}
.verdict{padding:12px 16px;border-radius:6px;border-left:8px solid}
.verdict-pass{background:#e9f7ec;border-color:#2ca02c}.verdict-fail{background:#fdecea;border-color:#d62728}
.verdict-incomplete{background:#fff4e5;border-color:#ff7f0e}.verdict-no-baseline{background:#eef3fb;border-color:#1f77b4}
.v-fail{color:#b00;font-weight:bold}.v-warn{color:#a60;font-weight:bold}.v-pass{color:#080}.v-info{color:#077;font-style:italic}.v-skip{color:#777}
.notes{margin:0;padding-left:16px}.note-error{color:#b00}.note-warn{color:#a60}.note-note{color:#555}
.change{font-family:monospace;color:#a40}.warning{background:#fff4e5;padding:6px 10px;border-radius:4px}
.figures{display:flex;flex-wrap:wrap;gap:12px}.figures svg{border:1px solid #eee}
.pair-block{max-width:560px;font-size:12px}.slowest-rank{font-weight:bold;background:#fff4e5}
.key-band-figure{margin:0;max-width:320px;font-size:11px}.key-band-figure figcaption{word-break:break-all}
)";

// One class per style of the verdict table: UNSTABLE and AMBIGUOUS look like the warnings they
// are, NEW and NOISY never like a pass.
std::string verdict_css(verdict::Verdict v) {
  return std::string("v-") + verdict::style_name(verdict::facts_of(v).style);
}

std::string verdict_cell(const verdict::KeyComparison& k) {
  return "<td class=\"verdict-cell " + verdict_css(k.verdict) + "\">" +
         verdict::verdict_name(k.verdict) + "</td>";
}

std::string notes_html(const std::vector<Note>& notes) {
  if (notes.empty()) return "";
  std::string out = "<ul class=\"notes\">";
  for (const Note& n : notes) {
    out += "<li class=\"note note-" + esc(n.level) + "\" data-pitfall=\"" + esc(n.id) + "\"><b>" +
           esc(n.id) + "</b> " + esc(n.level) + ": " + esc(n.text) + "</li>";
  }
  return out + "</ul>";
}

std::string changes_html(const std::vector<verdict::Change>& changes) {
  std::string out;
  for (const verdict::Change& c : changes) {
    out += "<div class=\"change change-" + esc(c.what) + "\">" + esc(c.what) + " " + esc(c.before) +
           " → " + esc(c.after) + "</div>";
  }
  return out;
}

std::string rate(const std::optional<double>& busbw, double algbw) {
  if (busbw) return verdict::format_metric(*busbw, false);
  return algbw > 0 ? verdict::format_metric(algbw, false) : "";
}

std::string time_text(double us) { return us > 0 ? verdict::format_metric(us, true) : ""; }

void headline(const verdict::Comparison& c, std::string& out) {
  const char* css = c.exit_code == ExitCode::gate_failure    ? "verdict-fail"
                    : c.exit_code == ExitCode::infra_failure ? "verdict-incomplete"
                    : !c.has_baseline                        ? "verdict-no-baseline"
                                                             : "verdict-pass";
  out += "<header id=\"verdict\" class=\"verdict " + std::string(css) +
         "\"><h1>fabricgate: " + esc(c.headline()) + "</h1><p class=\"questions\">" +
         esc(c.change_line()) + "<br>" + esc(c.runner_line()) + " (--gate " +
         verdict::gate_mode_name(c.gate) + ")</p><p>Run <code>" + esc(c.run_id) +
         "</code> on <code>" + esc(c.platform) + "</code>" +
         (c.has_baseline ? " vs baseline <code>" + esc(c.baseline_source) + "</code>"
                         : ", no baseline") +
         ".</p>";
  if (!c.has_baseline) {
    out +=
        "<p>Nothing was gated. Create a baseline from launches of at least three sessions and "
        "commit it through a pull "
        "request: <code>" +
        esc(c.create_baseline_command) + "</code></p>";
  }
  if (!c.run_complete) out += "<p><b>Incomplete run:</b> " + esc(c.incomplete_reason) + "</p>";
  out += "</header>\n";
}

// The first screen after the headline: each failing or ambiguous key's launches against the band
// and centre that judged it (key_band_figure.hpp), in the verdict table's order of urgency.
void failing_charts(const verdict::Comparison& c, std::string& out) {
  std::string figures;
  std::size_t drawn = 0;
  for (const verdict::KeyComparison& k : c.keys) {
    if (!verdict::facts_of(k.verdict).fails && !verdict::facts_of(k.verdict).warns) continue;
    const std::string figure = key_band_figure(k);
    if (figure.empty()) continue;
    figures += figure;
    ++drawn;
  }
  if (drawn == 0) return;
  out += "<section id=\"failing-charts\"><h2>" + std::to_string(drawn) +
         " failing or ambiguous key(s): their launches against the band that judged them</h2>"
         "<p>Shaded: the band (a launch below it, for a rate, or above it, for a time, "
         "regresses); dashed: its centre; red: this run's first launch and each confirmation "
         "launch.</p><div class=\"figures\">" +
         figures + "</div></section>\n";
}

void failing_keys(const verdict::Comparison& c, std::string& out) {
  std::string rows;
  for (const verdict::KeyComparison& k : c.keys) {
    if (!verdict::facts_of(k.verdict).fails && !verdict::facts_of(k.verdict).warns) continue;
    const KeyFigures f = key_figures(k);
    rows += "<tr class=\"failing-key\">" + verdict_cell(k) + "<td><code>" + esc(k.key) +
            "</code></td><td class=\"num\">" + esc(f.size) + "</td><td>" + esc(f.metric) +
            "</td><td class=\"num\">" + esc(f.baseline) + "</td><td class=\"num\">" + esc(f.now) +
            "</td><td class=\"num\">" + esc(f.change) + "</td><td>" + esc(k.reason) +
            changes_html(k.changes) + notes_html(k.notes) + "</td></tr>\n";
  }
  out += "<section id=\"failing\"><h2>Failing and ambiguous keys</h2>";
  if (rows.empty()) {
    out += "<p class=\"none-failing\">No key fails the gate.</p></section>\n";
    return;
  }
  out +=
      "<table "
      "class=\"failing-keys\"><tr><th>verdict</th><th>key</th><th>size</th><th>metric</"
      "th><th>baseline</th>"
      "<th>now</th><th>change (+ = better)</th><th>reason, changes, notes</th></tr>\n" +
      rows + "</table></section>\n";
}

void versions_and_warnings(const verdict::Comparison& c, std::string& out) {
  out += "<section id=\"versions\"><h2>Versions</h2>";
  if (c.version_changes.empty()) {
    out += c.has_baseline ? "<p>NCCL, driver, CUDA and MPI versions are those of the baseline.</p>"
                          : "<p>No baseline to compare versions with.</p>";
  } else {
    out +=
        "<table id=\"version-changes\" "
        "class=\"version-changes\"><tr><th>component</th><th>baseline</th><th>this run</th></tr>";
    for (const verdict::VersionChange& v : c.version_changes) {
      out += "<tr><td>" + esc(v.component) + "</td><td>" + esc(v.before) +
             "</td><td class=\"change\">" + esc(v.after) + "</td></tr>";
    }
    out += "</table>";
  }
  out += "</section>\n";
  if (c.has_baseline)
    out += fingerprint_changes_html(
        {c.fingerprint_changes, c.fingerprint_note, "baseline", "this run"});
  const std::vector<std::string> runner = c.runner_evidence.lines();
  if (c.warnings.empty() && runner.empty()) return;
  out += "<section id=\"warnings\"><h2>Warnings</h2>";
  for (const std::string& w : c.warnings) out += "<p class=\"warning\">" + esc(w) + "</p>";
  // What the runner was doing (docs/COUNTERS.md): foreign GPU processes, throttling, unread.
  for (const std::string& r : runner) out += "<p class=\"warning\">runner: " + esc(r) + "</p>";
  out += "</section>\n";
}

void key_table(const CurveGroup& g, std::string& out) {
  out +=
      "<table class=\"keys\"><tr><th>size</th><th>series</th><th>rate baseline</th><th>rate "
      "now</th><th>time baseline</th>"
      "<th>time now</th><th>judged</th><th>change (+ = better)</th><th>verdict</th><th>NCCL choice "
      "/ notes</th></tr>\n";
  for (const verdict::KeyComparison* k : g.keys) {
    const KeyFigures f = key_figures(*k);
    out += "<tr class=\"key-row\" title=\"" + esc(k->key) + "\"><td class=\"num\">" + esc(f.size) +
           "</td><td><code>" + esc(series_of(k->key)) + "</code></td><td class=\"num\">" +
           rate(k->busbw_baseline, k->algbw_baseline) + "</td><td class=\"num\">" +
           rate(k->busbw_now, k->algbw_now) + "</td><td class=\"num\">" +
           time_text(k->time_us_baseline) + "</td><td class=\"num\">" + time_text(k->time_us_now) +
           "</td><td>" + (k->judgement ? esc(f.metric) : "") + "</td><td class=\"num\">" +
           esc(f.change) + "</td>" + verdict_cell(*k) + "<td>" + changes_html(k->changes) +
           notes_html(k->notes) + "</td></tr>\n";
  }
  out += "</table>\n";
}

void collectives(const verdict::Comparison& c, const HtmlInputs& in, std::string& out) {
  const std::vector<CurveGroup> groups = curve_groups(c);
  if (groups.empty()) return;
  out +=
      "<section id=\"collectives\"><h2>Per collective and operation</h2><p>Bandwidth and time "
      "against message "
      "size (log2 axis): this run (solid), baseline median (dashed) and, on the metric each key "
      "was judged on, the band it was judged with (shaded: the judgement's own lower and upper "
      "limits, centre × (1 − tolerance) to centre / (1 − tolerance)). Triangles mark keys where "
      "NCCL's choice (orange) or the "
      "transport (purple) "
      "changed, or that fail the gate (red); hover for details. Sizes below the latency class are "
      "judged on "
      "time (P15): see the <i>judged</i> column.</p>\n";
  for (const CurveGroup& g : groups) {
    out += "<div class=\"collective\" id=\"" + esc(g.id) + "\"><h3>" + esc(g.title) +
           "</h3><div class=\"figures\">" + size_plot_svg(g, true) + size_plot_svg(g, false);
    if (!in.history.empty()) out += trend_plot_svg(g, in.history, in.history_last);
    out += "</div>\n";
    key_table(g, out);
    out += "</div>\n";
  }
  out += "</section>\n";
}

void pairs(const verdict::Comparison& c, std::string& out) {
  const std::vector<PairMatrix> matrices = pair_matrices(c);
  if (matrices.empty()) return;
  out +=
      "<section id=\"p2p\"><h2>GPU pair matrix</h2><p>Rows: source GPU, columns: destination GPU; "
      "shade = "
      "share of the largest value in the matrix; failing keys outlined in red; hover a cell for "
      "baseline, change "
      "and notes.</p>"
      "<div class=\"figures\">";
  for (const PairMatrix& m : matrices) {
    out += "<div class=\"pair-block\">" + m.svg;
    if (!m.notes.empty()) {
      out += "<ul class=\"notes\">";
      for (const std::string& n : m.notes) out += "<li class=\"note\">" + esc(n) + "</li>";
      out += "</ul>";
    }
    out += "</div>";
  }
  out += "</div></section>\n";
}

void capture_and_footer(const verdict::Comparison& c, const HtmlInputs& in, std::string& out) {
  std::string transports;
  for (const std::string& t : c.capture.transports)
    transports += (transports.empty() ? "" : ", ") + t;
  out +=
      "<section "
      "id=\"capture\"><h2>Capture</h2><table><tr><th>path</th><th>network</th><th>transports</th>"
      "<th>GDRDMA</th><th>NCCL</th></tr><tr><td>" +
      esc(c.capture.path) + "</td><td>" + esc(c.capture.network.empty() ? "-" : c.capture.network) +
      "</td><td>" + esc(transports.empty() ? "-" : transports) + "</td><td>" +
      (c.capture.gdrdma ? "yes" : "no") + "</td><td>" +
      esc(c.capture.nccl_version.empty() ? "-" : c.capture.nccl_version) +
      "</td></tr></table></section>\n";
  out +=
      "<footer><p>Statistics: the launch is the unit; a key regresses when this launch's median "
      "leaves the "
      "prediction band of the baseline's launch medians (one-sided, alpha " +
      fmt::format("{:.3g}", c.alpha) +
      " per key, floored by the size class's tolerance) and a confirmation launch agrees.</p>";
  if (!c.confirmation_note.empty()) out += "<p>Confirmation: " + esc(c.confirmation_note) + "</p>";
  if (!in.history.empty()) {
    out += "<p id=\"history-source\">Trend: " + std::to_string(in.history.size()) +
           " runs from <code>" + esc(in.history_source) + "</code>.</p>";
  }
  for (const std::string& w : in.history_warnings)
    out += "<p class=\"history-warning\">history: " + esc(w) + "</p>";
  out += "<p>Generated by fabricgate from <code>" + esc(c.run_source) + "</code>.</p></footer>\n";
}

}  // namespace

std::string render_html(const verdict::Comparison& c, const HtmlInputs& inputs) {
  std::string out = html_page_start("fabricgate " + c.run_id + ": " + c.headline(), kStyles);
  headline(c, out);
  failing_charts(c, out);
  failing_keys(c, out);
  out += cluster_findings_html(c);
  out += rank_tables_html(c);
  versions_and_warnings(c, out);
  collectives(c, inputs, out);
  pairs(c, out);
  capture_and_footer(c, inputs, out);
  return out + "</body></html>\n";
}

}  // namespace fabricgate::report
