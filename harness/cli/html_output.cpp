#include "harness/cli/html_output.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "core/text_escape.hpp"
#include "harness/report/history.hpp"
#include "harness/report/html_report.hpp"
#include "harness/report/printable_comparison.hpp"

namespace fabricgate::cli {

namespace {

namespace fs = std::filesystem;

// The runs of the run's platform up to the reported one, which is always included.
void add_history(const RunRecord& run, const HtmlHistoryOptions& h, report::HtmlInputs& in) {
  fs::path dir = h.dir;
  std::error_code ec;
  if (dir.empty()) {
    // <results>/<platform>/<run-id>/run.json: the platform directory holds the neighbours.
    const fs::path run_dir =
        run.directory.empty() ? fs::path(run.source).parent_path() : fs::path(run.directory);
    dir = run_dir.parent_path();
  } else if (fs::is_directory(dir / run.platform, ec)) {
    dir /= run.platform;  // a results root was given
  } else if (!fs::is_directory(dir, ec)) {
    throw InputError(h.dir, "", "no such results directory (--history)");
  }
  in.history_source = dir.string();
  if (!dir.empty() && fs::is_directory(dir, ec)) {
    report::ScanOptions options;
    options.platform = run.platform;
    options.last = h.last;
    options.started_up_to = run.started_at;
    report::RunScan scan = report::scan_runs(dir, options);
    in.history = std::move(scan.runs);
    in.history_warnings = std::move(scan.warnings);
  }
  const bool listed =
      std::any_of(in.history.begin(), in.history.end(),
                  [&](const report::IndexedRun& r) { return r.run_id == run.run_id; });
  if (!listed) {
    in.history.push_back(report::index_run(run));
    report::order_runs(in.history);
  }
}

}  // namespace

void write_html_report(const RunRecord& run, const verdict::Comparison& comparison,
                       const HtmlHistoryOptions& history, const std::string& out) {
  report::HtmlInputs in;
  in.history_last = history.last;
  if (history.enabled) add_history(run, history, in);
  for (const std::string& w : in.history_warnings) {
    std::cerr << "fabricgate: history: " << report::printable(w) << "\n";
  }
  const std::string html = report::without_workflow_commands(
      report::render_html(report::printable_copy(comparison), in));
  if (out.empty()) {
    std::cout << html << std::flush;
  } else {
    write_file_atomically(out, html);
  }
}

}  // namespace fabricgate::cli
