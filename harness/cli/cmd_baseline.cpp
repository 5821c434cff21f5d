// fabricgate baseline create|update: baselines change through pull requests, so both print a
// reviewable diff and write atomically; on any error nothing is overwritten.
#include <filesystem>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "core/text_escape.hpp"
#include "harness/cli/commands.hpp"
#include "harness/gate/baseline_builder.hpp"
#include "harness/gate/baseline_diff.hpp"
#include "harness/gate/baseline_window.hpp"
#include "harness/gate/platform_guard.hpp"
#include "harness/model/baseline.hpp"
#include "harness/model/output_paths.hpp"
#include "harness/model/run_record.hpp"

namespace fabricgate::cli {

namespace {

struct BaselineArgs {
  std::vector<std::string> from;
  std::string out;
  std::string baselines_dir;
  std::string platform;
  std::string baseline;  // update: the file to update
  bool force_platform = false;
  bool reset_policy = false;  // create: the defaults instead of the replaced baseline's policy
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

int run_create(const BaselineArgs& a) {
  if (!a.out.empty() && !a.baselines_dir.empty()) {
    throw InputError("baseline create: give --out FILE or --baselines-dir DIR, not both");
  }
  const std::vector<RunRecord> runs = load_runs(a.from);
  const std::string platform = a.platform.empty() ? runs.front().platform : a.platform;
  require_safe_name(platform, "--platform", "");  // before it becomes part of a path
  const std::filesystem::path dir = a.baselines_dir.empty() ? "baselines" : a.baselines_dir;
  const std::filesystem::path out =
      a.out.empty() ? dir / (platform + ".json") : std::filesystem::path(a.out);
  require_writable_file(out, a.out.empty() ? "--baselines-dir" : "--out");
  std::optional<Baseline> previous;
  std::error_code ec;
  if (std::filesystem::exists(out, ec))
    previous = load_baseline(out);  // diff against what it replaces
  gate::require_file_named_for(out, platform, previous ? &*previous : nullptr, a.force_platform);
  gate::BaselineBuildOptions options;
  options.platform = a.platform;
  options.now = gate::utc_now_iso8601();
  // A re-created baseline keeps the thresholds someone tuned in review unless told otherwise.
  if (previous && !a.reset_policy) options.policy = previous->policy;
  const gate::BuiltBaseline built = gate::create_baseline(runs, options);
  save_baseline(out, built.baseline);
  std::cout << "wrote " << out.string() << "\n"
            << gate::render_baseline_diff(
                   gate::diff_baselines(previous ? &*previous : nullptr, built.baseline));
  print_left_out(built.left_out);
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
            << " launches\n"
            << gate::render_baseline_diff(gate::diff_baselines(&old, built.baseline));
  for (const std::string& l : update.not_merged)
    std::cout << report::console_text("not merged: " + l) << "\n";
  print_left_out(built.left_out);
  return 0;
}

}  // namespace

void add_baseline_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("baseline", "Create or update a platform baseline from runs");
  cmd->require_subcommand(1);

  auto create_args = std::make_shared<BaselineArgs>();
  auto* create = cmd->add_subcommand("create", "Create a baseline from >= 3 runs of one platform");
  create->add_option("--from", create_args->from, "Run directory or run.json (repeat)")->required();
  create->add_option("--out", create_args->out, "Baseline file to write");
  create->add_option("--baselines-dir", create_args->baselines_dir,
                     "Write <DIR>/<platform>.json (default: baselines/)");
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
  update->add_option("--baseline", update_args->baseline, "Baseline file to update")->required();
  update->add_option("--from", update_args->from, "Run directory or run.json (repeat)")->required();
  update->add_flag("--force-platform", update_args->force_platform,
                   "Merge runs even when their platform key differs from the baseline's");
  update->callback([update_args, &exit_code] { exit_code = run_update(*update_args); });
}

}  // namespace fabricgate::cli
