// fabricgate compare RUN [RUN...]: judge a run against its platform's baseline (later RUNs of the
// same session confirm it, as `run` confirms a first launch) and render the result.
// Exit: 0 pass, 1 gate failure, 2 bad input / platform mismatch / missing required baseline,
// 3 incomplete run (compared as far as it got; 1 wins when the gate already failed).
#include <unistd.h>

#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/compare_against.hpp"
#include "harness/cli/comparison_output.hpp"
#include "harness/cli/store_hook.hpp"
#include "harness/fingerprint/host_key.hpp"
#include "harness/gate/compare.hpp"
#include "harness/gate/outcome.hpp"
#include "harness/model/baseline_location.hpp"
#include "harness/model/output_paths.hpp"
#include "harness/model/run_record.hpp"
#include "harness/report/render.hpp"
#include "harness/report/step_summary.hpp"

namespace fabricgate::cli {

namespace {

struct CompareArgs {
  std::vector<std::string> runs;
  std::string baseline;
  std::string baselines_dir = kBaselinesDir;
  bool require_baseline = false;
  bool force = false;
  bool force_platform = false;
  std::string format = "console";
  std::string out;
  bool verbose = false;
  std::string store;
  std::string gate = kDefaultGate;
  bool vouch = false;  // seal the recorded row with this machine's host key (row_seal.hpp)
  std::vector<std::string> against;  // compare_against.hpp: RUNs against these, A/B style
};

int run_compare(const CompareArgs& a) {
  if (!a.against.empty()) {
    if (a.vouch || a.require_baseline || !a.store.empty())
      throw InputError(
          "--against compares runs with runs: it records nothing and needs no baseline (drop "
          "--vouch, --store and --require-baseline)");
    CompareAgainstArgs ca;
    ca.newer = a.runs;
    ca.older = a.against;
    ca.baseline = a.baseline;
    ca.baselines_dir = a.baselines_dir;
    ca.force_platform = a.force_platform;
    ca.format = a.format;
    ca.out = a.out;
    return run_compare_against(ca);
  }
  const report::ReportFormat format = report::parse_report_format(a.format);
  if (format == report::ReportFormat::annotations) {
    throw InputError("compare --format annotations is not offered; use `fabricgate report`");
  }
  if (!a.out.empty()) require_writable_file(a.out, "--out");
  // An unusable key file is an input error before anything is judged or written.
  const std::string key = a.vouch ? fingerprint::require_host_key() : std::string();
  GatedRun g = judge_run_files(a.runs, a.baseline, a.baselines_dir,
                               compare_options(a.force, a.force_platform, a.gate), a.store,
                               store::Access::write);
  const verdict::Comparison& comparison = g.comparison;
  emit(comparison, format, a.out, a.verbose);
  report::append_github_step_summary(comparison);
  // The store comes after the verdict: its failure is reported below the gate's answer.
  const bool recorded =
      record_run(store_for_run(a.store, g.run), g.run, comparison, g.store_failure, key);
  report_missing_required_baseline(comparison, g.run, a.require_baseline);
  return gate::command_exit_code(comparison, {g.store_failed, recorded, a.require_baseline});
}

}  // namespace

void add_compare_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<CompareArgs>();
  auto* cmd =
      app.add_subcommand("compare", "Compare a run with its platform's baseline (the gate)");
  cmd->footer(
      "Examples:\n"
      "  fabricgate compare results/h200-x2/RUN_ID --format markdown\n"
      "  fabricgate compare RUN RUN_CONFIRM RUN_LATER   (later launches of one session confirm "
      "it)\n"
      "  fabricgate compare NEW1 NEW2 NEW3 --against OLD1 OLD2 OLD3   (is NEW worse than OLD?)");
  cmd->add_option("runs", args->runs,
                  "Run directory (run.json or records.jsonl) or run.json file; further RUNs are "
                  "later launches of the same session that confirm it, oldest first (default: the "
                  "run's own confirm/ and confirm-2/)")
      ->required();
  cmd->add_option("--baseline", args->baseline,
                  "Baseline file (default: <baselines-dir>/<platform>/<suite>.json, else "
                  "<baselines-dir>/<platform>.json)");
  cmd->add_option("--baselines-dir", args->baselines_dir,
                  "Directory of <platform>/<suite>.json (and older <platform>.json) baselines")
      ->capture_default_str();
  cmd->add_flag("--require-baseline", args->require_baseline,
                "Exit 2 when the platform has no baseline");
  cmd->add_flag("--force", args->force, "Compare even when the fingerprint identity differs");
  cmd->add_flag("--force-platform", args->force_platform,
                "Compare even when the run\'s platform key differs from the baseline\'s");
  cmd->add_option("--gate", args->gate, kGateHelp)
      ->check(CLI::IsMember({"change", "fleet", "both"}))
      ->capture_default_str();
  cmd->add_option("--format", args->format, "console|markdown|junit|json|ctrf")
      ->check(CLI::IsMember({"console", "markdown", "junit", "json", "ctrf"}))
      ->capture_default_str();
  cmd->add_option("--store", args->store,
                  "Results store the run is recorded in and DRIFT reads: sqlite:PATH, "
                  "postgresql://HOST/DB, a libpq "
                  "conninfo or none (default: $FABRICGATE_STORE, else sqlite:<results root of "
                  "RUN>/fabricgate.sqlite)");
  cmd->add_option("--against", args->against,
                  "Is RUN worse than these runs (any sessions)? Paired in order (RUN1 with the "
                  "first, ...) and judged by the A/B gate's interval at the baseline policy's "
                  "tolerance; one pair cannot measure launch-to-launch drift (UNDECIDED, exit 3): "
                  "give three or more runs a side");
  cmd->add_flag("--vouch", args->vouch,
                "Seal the run's row in the store with this machine's host key: it then counts as "
                "its host's level and DRIFT series (as the rows `fabricgate run` records do). "
                "Only for a run measured on this machine whose directory no one else can write");
  cmd->add_option("--out", args->out, "Write the report to FILE (atomically) instead of stdout");
  cmd->add_flag("--verbose", args->verbose,
                "Console: list every key with its notes (default: keys that need a look, then "
                "passes, skips and "
                "notes summarised)");
  cmd->callback([args, &exit_code] { exit_code = run_compare(*args); });
}

}  // namespace fabricgate::cli
