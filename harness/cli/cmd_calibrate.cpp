// fabricgate calibrate --suite S --launches N [--baseline F] [--write] | --from RUN...
// N A/A launches (nothing changed between them), or runs already made, and per key what the gate
// can and cannot see on this machine: launch-to-launch CV, the launches the baseline would fail
// (alone and confirmed), the minimum detectable effect, and which keys are too noisy to gate.
// --write stores the per-key bands in the baseline (diff shown). Exit: 0, 2 bad input, 3 launch
// failed.
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "core/text_escape.hpp"
#include "harness/baseline/baseline_builder.hpp"
#include "harness/baseline/baseline_diff.hpp"
#include "harness/baseline/calibration.hpp"
#include "harness/baseline/session_calibration.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/comparison_output.hpp"
#include "harness/cli/shipped_suites.hpp"
#include "harness/launch/run_lock.hpp"
#include "harness/launch/run_orchestrator.hpp"
#include "harness/model/baseline_location.hpp"
#include "harness/model/run_record.hpp"

namespace fabricgate::cli {

namespace {

struct CalibrateArgs {
  launch::RunOptions run;
  int launches = 0;
  std::vector<std::string> from;
  std::string baseline;
  std::string baselines_dir = kBaselinesDir;
  bool write = false;
  bool by_session = false;
  std::string bench;
  std::string platform;
  std::string lock_file = launch::kDefaultLockFile;
  int timeout_s = launch::kDefaultRunTimeoutSeconds;
  int lock_timeout_s = launch::kDefaultLockTimeoutSeconds;
  std::string out;
};

std::vector<RunRecord> make_launches(CalibrateArgs& a) {
  a.run.bench = a.bench.empty() ? launch::default_bench_path() : std::filesystem::path(a.bench);
  a.run.suite_dirs = {"suites", shipped_suites_dir()};
  if (!a.platform.empty()) a.run.platform = a.platform;
  a.run.timeout = std::chrono::seconds(a.timeout_s);
  a.run.progress = true;
  if (a.run.scenarios.empty()) a.run.scenarios = {"default"};
  if (a.run.scenarios.size() > 1)
    throw InputError("--scenario", "", "one scenario per calibration");
  launch::validate_run_options(a.run);  // bad input is refused before the lock file is made
  launch::RunLock lock(a.lock_file,
                       std::chrono::seconds(a.lock_timeout_s));  // all N launches, nothing between
  a.run.caller_holds_lock = true;
  std::vector<RunRecord> runs;
  for (int i = 0; i < a.launches; ++i) {
    std::cerr << "fabricgate: A/A launch " << (i + 1) << " of " << a.launches << "\n";
    const auto made = launch::run_suite(a.run);
    for (const auto& sr : made) {
      if (sr.bench_refused)
        throw InputError("fabricgate-bench refused the suite (see its message above)");
      if (!sr.complete)
        throw InfraError("A/A launch " + std::to_string(i + 1) +
                         " is incomplete: " + sr.dir.string());
      runs.push_back(load_run(sr.dir));
      a.run.fingerprint = load_json_file(sr.dir / "run.json").at("fingerprint");  // probed once
    }
  }
  return runs;
}

int run_calibrate(CalibrateArgs& a) {
  if ((a.launches > 0) == !a.from.empty())
    throw InputError("calibrate: give --suite S --launches N, or --from RUN...");
  if (a.launches > 0 && a.run.suite.empty())
    throw InputError("--launches", "", "--suite too (which suite to launch)");
  if (a.write && a.baseline.empty())
    throw InputError("--write", "", "--baseline FILE (the baseline to store bands in)");
  if (a.by_session && (a.from.empty() || a.write)) {
    throw InputError("--by-session", "",
                     "--from RUN... of several sessions (and no --write): it builds its own "
                     "baselines, leaving one session out at a time");
  }
  std::optional<Baseline> baseline;
  if (!a.baseline.empty())
    baseline = load_baseline(a.baseline);  // before launching: bad input first
  std::vector<RunRecord> runs;
  if (a.launches > 0) {
    runs = make_launches(a);
  } else {
    for (const std::string& p : a.from) runs.push_back(load_run(p));
  }
  if (a.by_session) {
    const TolerancePolicy policy = baseline ? baseline->policy : TolerancePolicy::defaults();
    const std::string text =
        baseline::render_session_calibration(baseline::calibrate_by_session(runs, policy));
    std::cout << report::console_text(text);  // session and host ids come from run files
    if (!a.out.empty()) write_file_atomically(a.out, text);
    return 0;
  }
  // Without --baseline, the baseline `compare` would judge these runs with (one choice,
  // comparison_output.hpp baseline_for: platform, suite and scenario of the first run).
  if (!baseline && !runs.empty()) baseline = located_baseline(runs.front(), "", a.baselines_dir);
  const baseline::CalibrationTable table =
      baseline::calibrate(runs, baseline ? &*baseline : nullptr,
                          baseline ? baseline->policy : TolerancePolicy::defaults());
  const std::string text = baseline::render_calibration(table);
  std::cout << report::console_text(text);
  if (!a.out.empty()) write_file_atomically(a.out, text);
  if (a.write) {
    Baseline updated = *baseline;
    updated.updated_at = baseline::utc_now_iso8601();
    const std::size_t n = baseline::write_calibrated_bands(updated, table, updated.updated_at);
    save_baseline(a.baseline, updated);
    std::cout << report::console_text(
        "\nwrote calibrated bands of " + std::to_string(n) + " keys into " + a.baseline + "\n" +
        baseline::render_baseline_diff(baseline::diff_baselines(&*baseline, updated)));
  }
  return 0;
}

}  // namespace

void add_calibrate_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<CalibrateArgs>();
  auto* cmd = app.add_subcommand("calibrate",
                                 "A/A launches (or existing runs): per key launch-to-launch noise, "
                                 "false alarms and detectable effect");
  cmd->footer(
      "Example:\n"
      "  fabricgate calibrate --suite quick --launches 20 --baseline baselines/h200-x2.json "
      "--write");
  cmd->add_option("--suite", a->run.suite, "Suite to launch N times (suites/<name>.json or file)");
  cmd->add_option("--launches", a->launches, "A/A launches to make (>= 2)")
      ->check(CLI::Range(2, 1000));
  cmd->add_option("--from", a->from, "Use these runs instead of launching (repeat)");
  cmd->add_option("--baseline", a->baseline,
                  "Baseline to count false alarms against (and --write into; default: the one "
                  "`compare` would choose for the runs, under --baselines-dir)");
  cmd->add_option("--baselines-dir", a->baselines_dir, "Directory of baselines")
      ->capture_default_str();
  cmd->add_flag("--write", a->write, "Store the per-key bands in the baseline (diff shown)");
  cmd->add_flag("--by-session", a->by_session,
                "With --from: variance components per key (within/between sessions) and "
                "leave-one-session-out false alarms and MDE, and the session_allowance the "
                "sessions suggest for this kind (--baseline: its policy only)");
  cmd->add_option("--out", a->out, "Also write the table to this file");
  cmd->add_option("--scenario", a->run.scenarios, "Scenario to launch (default: default)");
  cmd->add_option("--ranks", a->run.ranks, "Processes to launch (default: the suite's)");
  cmd->add_option("--launcher", a->run.launcher, "auto|mpirun|srun|direct")
      ->check(CLI::IsMember({"auto", "mpirun", "srun", "direct"}))
      ->capture_default_str();
  cmd->add_option("--results-dir", a->run.results_dir, "Where the launches' run directories go")
      ->capture_default_str();
  cmd->add_option("--platform", a->platform, "Platform key instead of the fingerprint's");
  cmd->add_option("--bench", a->bench,
                  "Path of fabricgate-bench (default: next to fabricgate, then PATH)");
  cmd->add_option("--timeout", a->timeout_s, "Seconds one launch may take")
      ->check(CLI::Range(1, 7 * 24 * 3600))
      ->capture_default_str();
  cmd->add_option("--lock", a->lock_file, "Runner lock file, held across all launches")
      ->capture_default_str();
  cmd->add_flag("--allow-suite-launcher-env", a->run.allow_suite_launcher_env,
                "Let the suite's env set variables that change what the launcher and ranks load "
                "(LD_*, PATH, PYTHONPATH, *_PLUGIN, OMPI_MCA_*, ...); refused otherwise");
  cmd->add_option("--lock-timeout", a->lock_timeout_s, "Seconds to wait for another run")
      ->check(CLI::Range(0, 7 * 24 * 3600))
      ->capture_default_str();
  cmd->callback([a, &exit_code] { exit_code = run_calibrate(*a); });
}

}  // namespace fabricgate::cli
