// fabricgate baseline create|update|status: baselines change through pull requests, so create and
// update print a reviewable diff and write atomically; on any error nothing is overwritten. Both
// warn when most keys would gate nothing; status says per key what is missing.
#include <filesystem>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "core/text_escape.hpp"
#include "harness/baseline/baseline_builder.hpp"
#include "harness/baseline/baseline_diff.hpp"
#include "harness/baseline/baseline_sessions.hpp"
#include "harness/baseline/baseline_status.hpp"
#include "harness/baseline/baseline_window.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/comparison_output.hpp"
#include "harness/gate/platform_guard.hpp"
#include "harness/model/baseline.hpp"
#include "harness/model/baseline_location.hpp"
#include "harness/model/output_paths.hpp"
#include "harness/model/run_record.hpp"

namespace fabricgate::cli {

namespace {

struct BaselineArgs {
  std::vector<std::string> from;
  std::string out;
  std::string baselines_dir;
  std::string platform;
  std::string suite;     // create: the suite key of the default path (default: the runs' suite)
  std::string baseline;  // update: the file to update
  bool force_platform = false;
  bool reset_policy = false;  // create: the defaults instead of the replaced baseline's policy
  bool all_keys = false;      // status: every key, not only those that gate nothing
};

std::vector<RunRecord> load_runs(const std::vector<std::string>& paths) {
  std::vector<RunRecord> runs;
  runs.reserve(paths.size());
  for (const std::string& p : paths) runs.push_back(load_run(p));
  return runs;
}

void print_left_out(const std::vector<std::string>& left_out) {
  for (const std::string& l : left_out) std::cout << report::console_text("left out: " + l) << "\n";
}

// A baseline whose keys are mostly NOISY or short of launches passes everything: say so, with the
// counts and the launches that would make them gateable (harness/baseline/baseline_status.hpp).
void warn_if_mostly_ungated(const std::filesystem::path& file, Baseline baseline) {
  baseline.source = file.string();
  const std::string warning = gate::baseline_gateability_warning(gate::baseline_status(baseline));
  if (!warning.empty()) std::cerr << "fabricgate: " << warning << "\n";
}

int run_create(const BaselineArgs& a) {
  if (!a.out.empty() && !a.baselines_dir.empty()) {
    throw InputError("baseline create: give --out FILE or --baselines-dir DIR, not both");
  }
  const std::vector<RunRecord> runs = load_runs(a.from);
  const std::string platform = a.platform.empty() ? runs.front().platform : a.platform;
  require_safe_name(platform, "--platform", "");  // before it becomes part of a path
  const std::string suite = a.suite.empty() ? runs.front().suite : a.suite;
  if (!a.suite.empty()) require_safe_name(suite, "--suite", "");
  const std::filesystem::path dir = a.baselines_dir.empty() ? "baselines" : a.baselines_dir;
  // Keyed by platform and suite (<dir>/<platform>/<suite>.json); a suite given to the runs as a
  // path names no key, so those runs get the per-platform file.
  const std::filesystem::path out =
      a.out.empty() ? suite_baseline_path(dir, platform, suite) : std::filesystem::path(a.out);
  const std::filesystem::path target = out.empty() ? platform_baseline_path(dir, platform) : out;
  require_writable_file(target, a.out.empty() ? "--baselines-dir" : "--out");
  std::optional<Baseline> previous;
  std::error_code ec;
  if (std::filesystem::exists(target, ec))
    previous = load_baseline(target);  // diff against what it replaces
  gate::require_file_named_for(target, platform, previous ? &*previous : nullptr, a.force_platform);
  gate::BaselineBuildOptions options;
  options.platform = a.platform;
  options.now = gate::utc_now_iso8601();
  // A re-created baseline keeps the thresholds someone tuned in review unless told otherwise.
  if (previous && !a.reset_policy) options.policy = previous->policy;
  const gate::BuiltBaseline built = gate::create_baseline(runs, options);
  save_baseline(target, built.baseline);
  std::cout << "wrote " << target.string() << "\n"
            << gate::render_baseline_diff(
                   gate::diff_baselines(previous ? &*previous : nullptr, built.baseline))
            << gate::describe_sessions(built.baseline);
  print_left_out(built.left_out);
  warn_if_mostly_ungated(target, built.baseline);
  return 0;
}

int run_update(const BaselineArgs& a) {
  const Baseline old = load_baseline(a.baseline);
  const std::vector<RunRecord> runs = load_runs(a.from);
  gate::require_runs_platform(runs, old, a.force_platform);
  const gate::WindowUpdate update =
      gate::update_baseline_window(old, runs, gate::utc_now_iso8601());
  const gate::BuiltBaseline& built = update.built;
  save_baseline(a.baseline, built.baseline);
  std::cout << "updated " << a.baseline << ": " << update.launches_merged
            << " passing key launch(es) merged into windows of " << old.policy.window
            << " launches (whole sessions dropped from the oldest)\n"
            << gate::render_baseline_diff(gate::diff_baselines(&old, built.baseline))
            << gate::describe_sessions(built.baseline);
  for (const std::string& l : update.not_merged)
    std::cout << report::console_text("not merged: " + l) << "\n";
  print_left_out(built.left_out);
  warn_if_mostly_ungated(a.baseline, built.baseline);
  return 0;
}

// baseline status: what the baseline can gate now, and what each key lacks.
int run_status(const BaselineArgs& a) {
  if (!a.baseline.empty() && (!a.suite.empty() || !a.platform.empty()))
    throw InputError("baseline status: give --baseline FILE or --platform/--suite, not both");
  std::filesystem::path file = a.baseline;
  if (file.empty()) {
    if (a.platform.empty())
      throw InputError("baseline status: give --baseline FILE, or --platform P (and --suite S)");
    require_safe_name(a.platform, "--platform", "");
    if (!a.suite.empty()) require_safe_name(a.suite, "--suite", "");
    const std::filesystem::path dir = a.baselines_dir.empty() ? "baselines" : a.baselines_dir;
    const BaselineLocation where = locate_baseline(dir, a.platform, a.suite);
    if (!where.exists) {
      throw InputError(where.path.string(), "",
                       "no baseline here yet (`fabricgate baseline create` makes one)");
    }
    note_baseline_location(where);
    file = where.path;
  }
  const Baseline baseline = load_baseline(file);
  std::cout << gate::render_baseline_status(gate::baseline_status(baseline), a.all_keys);
  return 0;
}

}  // namespace

void add_baseline_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "baseline",
      "Create, update or inspect a baseline (baselines/<platform>/<suite>.json) from runs");
  cmd->footer(
      "Examples:\n"
      "  fabricgate baseline create --from RUN1 --from RUN2 --from RUN3 --suite p2p\n"
      "  fabricgate baseline status --platform h200-x1 --suite p2p");
  cmd->require_subcommand(1);

  auto create_args = std::make_shared<BaselineArgs>();
  auto* create = cmd->add_subcommand(
      "create",
      "Create a baseline from runs (launches) of one platform and suite: at least min_runs (3); "
      "warns when most keys would not gate and says how many launches would. Example: fabricgate "
      "baseline create --from results/P/R1 --from results/P/R2 ... --baselines-dir baselines");
  create->footer(
      "Example:\n"
      "  fabricgate baseline create --from RUN1 --from RUN2 --from RUN3 --suite p2p");
  create->add_option("--from", create_args->from, "Run directory or run.json (repeat)")->required();
  create->add_option("--out", create_args->out, "Baseline file to write");
  create->add_option("--baselines-dir", create_args->baselines_dir,
                     "Write <DIR>/<platform>/<suite>.json (default: baselines/)");
  create->add_option("--suite", create_args->suite,
                     "Suite key of the default file name (default: the runs' suite)");
  create->add_option("--platform", create_args->platform,
                     "Platform key (default: the runs' platform)");
  create->add_flag("--force-platform", create_args->force_platform,
                   "Write even when the target file is another platform's baseline");
  create->add_flag("--reset-policy", create_args->reset_policy,
                   "Use the default tolerance policy instead of the replaced baseline's");
  create->callback([create_args, &exit_code] { exit_code = run_create(*create_args); });

  auto update_args = std::make_shared<BaselineArgs>();
  auto* update = cmd->add_subcommand("update",
                                     "Merge the passing launches of the given runs into each key's "
                                     "rolling window (policy window)");
  update->footer(
      "Example:\n"
      "  fabricgate baseline update --baseline baselines/h200-x2.json --from "
      "results/h200-x2/RUN_ID");
  update->add_option("--baseline", update_args->baseline, "Baseline file to update")->required();
  update->add_option("--from", update_args->from, "Run directory or run.json (repeat)")->required();
  update->add_flag("--force-platform", update_args->force_platform,
                   "Merge runs even when their platform key differs from the baseline's");
  update->callback([update_args, &exit_code] { exit_code = run_update(*update_args); });

  auto status_args = std::make_shared<BaselineArgs>();
  auto* status = cmd->add_subcommand(
      "status",
      "What a baseline can gate now: per key the launches behind its band vs min_runs, NOISY keys "
      "(band wider than max_band) with the launches that would make them gateable, and the "
      "minimum detectable effect per size class");
  status->footer(
      "Example:\n"
      "  fabricgate baseline status --platform cpu-intel-xeon-c2 --suite cpu");
  status->add_option("--baseline", status_args->baseline, "Baseline file");
  status->add_option("--platform", status_args->platform,
                     "Platform key: reads <baselines-dir>/<platform>/<suite>.json (else the older "
                     "<platform>.json)");
  status->add_option("--suite", status_args->suite, "Suite of the baseline (with --platform)");
  status->add_option("--baselines-dir", status_args->baselines_dir,
                     "Directory of baselines (default: baselines/)");
  status->add_flag("--all-keys", status_args->all_keys,
                   "List every key (default: only keys that gate nothing now)");
  status->callback([status_args, &exit_code] { exit_code = run_status(*status_args); });
}

}  // namespace fabricgate::cli
