// fabricgate report RUN [RUN...]: render the judgement of a run in one format (console, markdown
// for the job summary, JUnit XML, GitHub annotations, JSON, self-contained HTML). The verdicts are
// the one judge's, as `compare` gives them (confirmations and DRIFT from the store included; the
// store is read, never written), and so is the exit code: 0 pass, 1 gate failure, 2 bad input,
// 3 incomplete run or unreadable store. HTML adds the judged bands and the trend over the last
// runs of the run's platform (read from --history, by default the directory the run lies in).
#include <unistd.h>

#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/comparison_output.hpp"
#include "harness/cli/store_hook.hpp"
#include "harness/gate/compare.hpp"
#include "harness/gate/outcome.hpp"
#include "harness/model/baseline_location.hpp"
#include "harness/model/output_paths.hpp"
#include "harness/model/run_record.hpp"
#include "harness/report/render.hpp"
#include "harness/report/step_summary.hpp"

namespace fabricgate::cli {

namespace {

struct ReportArgs {
  std::vector<std::string> runs;
  std::string store;
  std::string baseline;
  std::string baselines_dir = kBaselinesDir;
  bool force = false;
  bool force_platform = false;
  std::string format = "console";
  std::string out;
  std::string history;  // results root or platform directory; "" = where the run lies
  std::size_t history_last = 10;
  bool no_history = false;
  std::string gate = kDefaultGate;
};

int run_report(const ReportArgs& a) {
  const report::ReportFormat format = report::parse_report_format(a.format);
  if (!a.out.empty()) require_writable_file(a.out, "--out");
  const GatedRun g = judge_run_files(a.runs, a.baseline, a.baselines_dir,
                                     compare_options(a.force, a.force_platform, a.gate), a.store,
                                     store::Access::read);
  if (format == report::ReportFormat::html) {
    write_html_report(g.run, g.comparison,
                      HtmlHistoryOptions{!a.no_history, a.history, a.history_last}, a.out);
  } else {
    emit(g.comparison, format, a.out);
  }
  if (format == report::ReportFormat::markdown) report::append_github_step_summary(g.comparison);
  report_history_failure(g.store_failure);  // after the verdict
  return gate::command_exit_code(g.comparison, {g.store_failed, true, false});
}

}  // namespace

void add_report_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ReportArgs>();
  auto* cmd = app.add_subcommand("report",
                                 "Render a run's judgement (exit 0 pass, 1 a failing key, 3 an "
                                 "incomplete run or unreadable store, 2 bad input; the report is "
                                 "written in every case)");
  cmd->footer(
      "Examples:\n"
      "  fabricgate report results/h200-x2/RUN_ID --format html --out report.html\n"
      "  fabricgate report results/h200-x2/RUN_ID --format markdown");
  cmd->add_option("runs", args->runs,
                  "Run directory or run.json file; further RUNs are later launches of the same "
                  "session that confirm it (default: the run's own confirm/ and confirm-2/)")
      ->required();
  cmd->add_option("--store", args->store,
                  "Results store DRIFT reads (never written here): sqlite:PATH, "
                  "postgresql://HOST/DB, a libpq conninfo or none (default: $FABRICGATE_STORE, "
                  "else sqlite:<results root of RUN>/fabricgate.sqlite)");
  cmd->add_option("--baseline", args->baseline,
                  "Baseline file (default: <baselines-dir>/<platform>/<suite>.json, else "
                  "<baselines-dir>/<platform>.json)");
  cmd->add_option("--baselines-dir", args->baselines_dir,
                  "Directory of <platform>/<suite>.json (and older <platform>.json) baselines")
      ->capture_default_str();
  cmd->add_flag("--force", args->force, "Compare even when the fingerprint identity differs");
  cmd->add_flag("--force-platform", args->force_platform,
                "Compare even when the run\'s platform key differs from the baseline\'s");
  cmd->add_option(
         "--format", args->format,
         "console|markdown|junit|annotations|json|html|ctrf (ctrf: the Common Test Report Format, "
         "ctrf.io; html: one self-contained file, no network: "
         "verdict, failing keys, versions and what changed in the fingerprint, per collective "
         "busbw and time "
         "vs size with the baseline band and NCCL choice changes, the trend of the last runs with "
         "change "
         "points marked, the GPU-pair matrix, notes)")
      ->check(
          CLI::IsMember({"console", "markdown", "junit", "annotations", "json", "html", "ctrf"}))
      ->capture_default_str();
  cmd->add_option("--gate", args->gate, kGateHelp)
      ->check(CLI::IsMember({"change", "fleet", "both"}))
      ->capture_default_str();
  cmd->add_option("--out", args->out, "Write the report to FILE (atomically) instead of stdout");
  cmd->add_option("--history", args->history,
                  "html: results directory (root or <root>/<platform>) whose runs make the trend "
                  "(default: the directory the run lies in)")
      ->type_name("DIR");
  cmd->add_option("--history-last", args->history_last,
                  "html: runs shown in the trend, the reported one last")
      ->check(CLI::Range(2, 1000))
      ->capture_default_str();
  cmd->add_flag("--no-history", args->no_history, "html: no trend plots (no other run is read)");
  cmd->callback([args, &exit_code] { exit_code = run_report(*args); });
}

}  // namespace fabricgate::cli
