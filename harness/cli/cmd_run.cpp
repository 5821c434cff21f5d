// fabricgate run --suite NAME: launch the bench (mpirun / srun / direct), write the run directory
// under results/<platform>/<run_id>/, gate it against baselines/<platform>/<suite>.json
// (or the older baselines/<platform>.json) and report.
// Keys that fail on performance are re-measured in two later launches of only those keys (the
// second after a gap) and fail only when every judged launch fails: harness/gate/confirmation.hpp.
// Exit: 0 pass (or no baseline yet), 1 gate failure, 2 bad input / refused configuration,
// 3 infrastructure failure (launch failed, hang, crash: the results so far are kept).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <string_view>
#include <thread>

#include <CLI/CLI.hpp>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "core/suite_names.hpp"
#include "core/text_escape.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/comparison_output.hpp"
#include "harness/cli/paired_check_launch.hpp"
#include "harness/cli/run_progress.hpp"
#include "harness/cli/shipped_suites.hpp"
#include "harness/cli/store_hook.hpp"
#include "harness/fingerprint/host_key.hpp"
#include "harness/gate/compare.hpp"
#include "harness/gate/confirmation.hpp"
#include "harness/gate/judge_run.hpp"
#include "harness/gate/outcome.hpp"
#include "harness/launch/confirmation_launch.hpp"
#include "harness/launch/run_lock.hpp"
#include "harness/launch/run_orchestrator.hpp"
#include "harness/model/baseline_location.hpp"
#include "harness/model/run_record.hpp"
#include "harness/report/render.hpp"
#include "harness/report/step_summary.hpp"

namespace fabricgate::cli {

namespace {

struct RunArgs {
  launch::RunOptions run;
  std::string bench;
  std::string suites_dir;
  std::string baseline;
  std::string baselines_dir = kBaselinesDir;
  bool require_baseline = false;
  bool force = false;
  bool force_platform = false;
  bool no_compare = false;
  bool no_confirm = false;
  bool no_paired_check = false;
  PairedCheckLimits paired;
  std::size_t confirm_max_keys = 16;
  std::size_t confirm_launches = 2;
  int confirm_gap_s = 30;
  int timeout_s = launch::kDefaultRunTimeoutSeconds;
  int lock_timeout_s = launch::kDefaultLockTimeoutSeconds;
  std::string lock_file = launch::kDefaultLockFile;
  std::string platform;
  std::vector<std::string> reports{"markdown", "junit"};
  std::string gate = kDefaultGate;
  bool verbose = false;  // the bench's table and every key on the console
  int heartbeat_s = 10;  // without a terminal: a progress line this often (0: none)
  std::string store;
  store::StoreLocation store_location;  // resolved before anything is launched
  std::string host_key;                 // seals the row this run records (row_seal.hpp)
  gate::Acks acks;                      // <baselines-dir>/acks.json, read before the launch
};

// --verbose: the bench's Google Benchmark table, which it wrote into the run directory.
void print_bench_table(const std::filesystem::path& run_dir) {
  std::ifstream table(run_dir / "bench-console.txt", std::ios::binary);
  if (table) std::cout << table.rdbuf() << std::flush;
}

// Failing keys are measured again in later launches (same lock, only those keys), the second
// after --confirm-gap seconds, before the gate fails them: harness/gate/confirmation.hpp.
gate::ConfirmationLauncher confirmation_launcher(const RunArgs& a, const launch::ScenarioRun& sr,
                                                 const RunRecord& run) {
  return [&a, &sr, &run](const std::vector<std::string>& keys, std::size_t attempt) {
    if (attempt > 1 && a.confirm_gap_s > 0) {
      std::cerr << "fabricgate: waiting " << a.confirm_gap_s
                << " s so that the next confirmation is not back-to-back\n";
      std::this_thread::sleep_for(std::chrono::seconds(a.confirm_gap_s));
    }
    std::cerr << "fabricgate: " << keys.size() << " key(s) failed; confirmation launch " << attempt
              << "\n";
    launch::RunOptions o = a.run;
    o.fingerprint = load_json_file(sr.dir / "run.json")
                        .at("fingerprint");  // the same machine facts, not re-probed
    const launch::ScenarioRun again = launch::launch_confirmation(o, sr, run.run_id, keys, attempt);
    gate::ConfirmationLaunch out;
    out.source = again.dir.string();
    if (again.bench_refused || again.dir.empty() ||
        !std::filesystem::exists(again.dir / "run.json")) {
      out.source = "the confirmation launch did not produce a run" +
                   (again.dir.empty() ? "" : " in " + again.dir.string());
      return out;
    }
    out.run = load_run(again.dir);
    return out;
  };
}

// Why a run did not finish (a hang: which ranks, the timeout), as its run.json says: the console
// names the reason instead of a bare "(incomplete)".
std::string incomplete_reason_of(const launch::ScenarioRun& sr) {
  try {
    const std::string reason = load_run(sr.dir).incomplete_reason;
    return reason.empty() ? std::string("no reason recorded") : reason;
  } catch (const std::exception& e) {
    return std::string("run.json unreadable: ") + e.what();
  }
}

int gate_run(const RunArgs& a, const launch::ScenarioRun& sr) {
  const RunRecord run = load_run(sr.dir);
  // The one baseline choice (comparison_output.hpp), the scenario's own file included.
  const std::optional<Baseline> baseline = baseline_for(run, a.baseline, a.baselines_dir);
  gate::JudgeOptions judge;
  judge.acks = a.acks;
  judge.compare = compare_options(a.force, a.force_platform, a.gate);
  judge.confirm.max_keys = a.confirm_max_keys;
  judge.confirm.launches = a.no_confirm ? 0 : a.confirm_launches;
  if (!a.no_paired_check)
    judge.paired_check = paired_check_launcher(a.run, sr.dir, baseline, a.paired);
  std::string store_failure;
  const verdict::Comparison comparison =
      judge_with_history(run, baseline, confirmation_launcher(a, sr, run), a.store_location,
                         store::Access::write, judge, store_failure);
  emit(comparison, report::ReportFormat::console, "", a.verbose);
  for (const auto& name : a.reports) {
    const auto format = report::parse_report_format(name);
    if (format == report::ReportFormat::html) {  // with bands and the trend of results/<platform>/
      write_html_report(run, comparison, HtmlHistoryOptions{}, (sr.dir / "report.html").string());
      continue;
    }
    const char* file = format == report::ReportFormat::markdown ? "report.md"
                       : format == report::ReportFormat::junit  ? "junit.xml"
                       : format == report::ReportFormat::json   ? "comparison.json"
                       : format == report::ReportFormat::ctrf   ? "ctrf.json"
                                                                : "annotations.txt";
    emit(comparison, format, (sr.dir / file).string());
  }
  report::append_github_step_summary(comparison);
  std::cerr << "fabricgate: results in " << sr.dir.string() << "\n";
  // The store comes after the verdict: its failure is reported below the gate's answer.
  const bool recorded = record_run(a.store_location, run, comparison, store_failure, a.host_key);
  report_missing_required_baseline(comparison, run, a.require_baseline);
  return gate::command_exit_code(comparison, {false, recorded, a.require_baseline});
}

// A bench built with fixture families of its own (a test bench, a site's own families) names
// them in FABRICGATE_BENCH_FAMILIES (comma-separated), so that the suite check before the lock
// accepts them; the bench itself still refuses any family it has not registered.
void allow_bench_families_from_env() {
  const char* v = std::getenv("FABRICGATE_BENCH_FAMILIES");
  if (v == nullptr) return;
  std::string_view rest(v);
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string name(rest.substr(0, comma));
    require_safe_name(name, "FABRICGATE_BENCH_FAMILIES", "");
    allow_extra_suite_family(name);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
  }
}

int run_command(RunArgs& a) {
  allow_bench_families_from_env();
  a.run.bench = a.bench.empty() ? launch::default_bench_path() : std::filesystem::path(a.bench);
  if (!a.suites_dir.empty()) a.run.suite_dirs.push_back(a.suites_dir);
  a.run.suite_dirs.push_back("suites");
  a.run.suite_dirs.push_back(shipped_suites_dir());
  if (!a.platform.empty()) a.run.platform = a.platform;
  a.run.timeout = std::chrono::seconds(a.timeout_s);
  a.run.lock_timeout = std::chrono::seconds(a.lock_timeout_s);
  a.run.lock_file = a.lock_file;
  a.run.progress = false;  // RunProgress shows one line instead of the bench's line per benchmark
  for (const auto& r : a.reports) report::parse_report_format(r);  // InputError before measuring
  if (!a.no_paired_check && a.paired.min_pairs > a.paired.max_pairs)
    throw InputError("--paired-min-pairs " + std::to_string(a.paired.min_pairs) +
                     ": at most --paired-max-pairs (" + std::to_string(a.paired.max_pairs) + ")");
  if (!a.no_compare) a.store_location = store::resolve_store_location(a.store, a.run.results_dir);

  launch::validate_run_options(
      a.run);  // InputError before the lock, the fingerprint and the launch
  // Acknowledged failures: a malformed acks file is an input error before anything is launched.
  a.acks = gate::find_acks(a.baselines_dir, gate::utc_today());
  // The key that seals what this run records; an unusable key file is refused before measuring.
  if (a.store_location.kind != store::StoreKind::none) a.host_key = fingerprint::require_host_key();
  // One lock over the launches and their confirmations: nothing else measures in between.
  launch::RunLock lock(a.run.lock_file, a.run.lock_timeout);
  a.run.caller_holds_lock = true;
  std::vector<launch::ScenarioRun> runs;
  {
    const ProgressMode mode = ::isatty(STDERR_FILENO) == 1 ? ProgressMode::terminal
                              : a.heartbeat_s > 0          ? ProgressMode::heartbeat
                                                           : ProgressMode::off;
    const RunProgress progress(a.run.results_dir, mode, std::chrono::seconds(a.heartbeat_s));
    runs = launch::run_suite(a.run);
  }
  bool gate_failed = false;
  bool infra_failed = false;
  for (const auto& sr : runs) {
    if (sr.bench_refused) {
      throw InputError(
          "fabricgate-bench refused the suite (see its message above); the run directory " +
          sr.dir.string() + " keeps its launch details");
    }
    if (a.verbose) print_bench_table(sr.dir);
    if (a.no_compare) {
      infra_failed = infra_failed || !sr.complete;
      std::cerr << "fabricgate: results in " << sr.dir.string()
                << report::console_text(
                       sr.complete ? "" : " (incomplete: " + incomplete_reason_of(sr) + ")")
                << "\n";
      continue;
    }
    const int code = gate_run(a, sr);
    if (code == static_cast<int>(ExitCode::input_error)) return code;
    gate_failed = gate_failed || code == static_cast<int>(ExitCode::gate_failure);
    infra_failed =
        infra_failed || code == static_cast<int>(ExitCode::infra_failure) || !sr.complete;
  }
  if (gate_failed) return static_cast<int>(ExitCode::gate_failure);
  if (infra_failed) return static_cast<int>(ExitCode::infra_failure);
  return static_cast<int>(ExitCode::pass);
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<RunArgs>();
  auto* cmd = app.add_subcommand(
      "run", "Run a suite through mpirun/srun, write results/, gate against the baseline");
  cmd->footer(
      "Examples:\n"
      "  fabricgate run --suite quick --report markdown --report junit\n"
      "  fabricgate run --suite cpu --baseline baselines/cpu-box.json --results-dir results");
  cmd->add_option("--suite", a->run.suite, "Suite name (suites/<name>.json) or file")->required();
  cmd->add_option("--scenario", a->run.scenarios,
                  "Scenario(s) to run instead of the suite's: default, nvlink-off, nic-path, "
                  "socket-only, algo:<A>, proto:<P>");
  cmd->add_option("--ranks", a->run.ranks,
                  "Processes to launch, 1..4096 (default: the suite's; per-gpu = one per GPU)");
  cmd->add_option("--launcher", a->run.launcher, "auto|mpirun|srun|direct")
      ->check(CLI::IsMember({"auto", "mpirun", "srun", "direct"}))
      ->capture_default_str();
  cmd->add_option("--hostfile", a->run.hostfile, "mpirun hostfile for multi-node runs");
  cmd->add_option("--results-dir", a->run.results_dir, "Where run directories go")
      ->capture_default_str();
  cmd->add_option("--platform", a->platform, "Platform key instead of the fingerprint's");
  cmd->add_option("--baseline", a->baseline,
                  "Baseline file (default: <baselines-dir>/<platform>/<suite>.json, else "
                  "<baselines-dir>/<platform>.json)");
  cmd->add_option("--baselines-dir", a->baselines_dir, "Directory of baselines")
      ->capture_default_str();
  cmd->add_flag("--require-baseline", a->require_baseline,
                "Exit 2 when the platform has no baseline");
  cmd->add_flag("--force", a->force, "Compare even when the fingerprint identity differs");
  cmd->add_flag("--force-platform", a->force_platform,
                "Compare even when the run's platform key differs from the baseline's");
  cmd->add_flag("--no-compare", a->no_compare, "Measure and write results only");
  cmd->add_option("--gate", a->gate, kGateHelp)
      ->check(CLI::IsMember({"change", "fleet", "both"}))
      ->capture_default_str();
  cmd->add_flag("--no-confirm", a->no_confirm,
                "Fail on the first launch's verdicts (default: failing keys are re-measured in "
                "--confirm-launches later launches and fail only when every judged launch fails)");
  cmd->add_option("--confirm-launches", a->confirm_launches,
                  "Later launches that re-measure a failing key (<run>/confirm, <run>/confirm-2)")
      ->check(CLI::Range(1, 2))
      ->capture_default_str();
  cmd->add_option("--confirm-gap", a->confirm_gap_s,
                  "Seconds between the first and the second confirmation launch, so that the "
                  "second does not share a short dip with the first")
      ->check(CLI::Range(0, 3600))
      ->capture_default_str();
  cmd->add_flag("--no-paired-check", a->no_paired_check,
                "Do not launch the paired check (default: when keys are RUNNER-DIFFERS on a "
                "runner without a level of its own and the setup differs from the baseline's only "
                "in NCCL_/OMPI_/FI_/UCX_ settings, the baseline's settings (side A) and this "
                "run's (side B) are launched interleaved on those keys, <run>/paired/, and decide "
                "them: worse is REGRESSION, within the tolerance PASS, not decided stays "
                "RUNNER-DIFFERS)");
  cmd->add_option("--paired-max-pairs", a->paired.max_pairs,
                  "Most A/B pairs of the paired check (first look after --paired-min-pairs)")
      ->check(CLI::Range(2, 50))
      ->capture_default_str();
  cmd->add_option("--paired-min-pairs", a->paired.min_pairs,
                  "Pairs before the paired check's first look")
      ->check(CLI::Range(2, 50))
      ->capture_default_str();
  cmd->add_option("--confirm-max-keys", a->confirm_max_keys,
                  "Re-measure at most this many failing keys (the rest keep their verdict)")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  cmd->add_option(
         "--report", a->reports,
         "Reports written into the run directory: markdown, junit, json, html (report.html), ctrf "
         "(ctrf.json)")
      ->capture_default_str();
  cmd->add_flag("--verbose", a->verbose,
                "Print the bench's Google Benchmark table (always in <run dir>/bench-console.txt) "
                "and every key "
                "with its notes");
  cmd->add_option("--heartbeat", a->heartbeat_s,
                  "Without a terminal: print a progress line (keys done, time elapsed, last key "
                  "done) every SECONDS; 0 = none")
      ->type_name("SECONDS")
      ->check(CLI::Range(0, 3600))
      ->capture_default_str();
  cmd->add_option(
      "--store", a->store,
      "Results store the run is recorded in and DRIFT reads: sqlite:PATH, postgresql://HOST/DB, a "
      "libpq "
      "conninfo or none (default: $FABRICGATE_STORE, else sqlite:<results-dir>/fabricgate.sqlite)");
  cmd->add_option("--bench", a->bench,
                  "Path of fabricgate-bench (default: next to fabricgate, then PATH)");
  cmd->add_option("--suites-dir", a->suites_dir, "Extra directory searched for suite files");
  cmd->add_option("--timeout", a->timeout_s,
                  "Seconds one scenario may take before it is killed (exit 3)")
      ->check(CLI::Range(1, 7 * 24 * 3600))
      ->capture_default_str();
  cmd->add_option("--lock", a->lock_file, "Runner lock file: runs on one runner never overlap")
      ->capture_default_str();
  cmd->add_flag("--allow-suite-launcher-env", a->run.allow_suite_launcher_env,
                "Let the suite's env set variables that change what the launcher and ranks load "
                "(LD_*, PATH, PYTHONPATH, *_PLUGIN, OMPI_MCA_*, ...); refused otherwise");
  cmd->add_option("--lock-timeout", a->lock_timeout_s, "Seconds to wait for another run to finish")
      ->check(CLI::Range(0, 7 * 24 * 3600))
      ->capture_default_str();
  cmd->callback([a, &exit_code] { exit_code = run_command(*a); });
}

}  // namespace fabricgate::cli
