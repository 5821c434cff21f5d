#include "harness/cli/comparison_output.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>
#include <unistd.h>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "core/text_escape.hpp"
#include "harness/baseline/baseline_status.hpp"
#include "harness/cli/paired_check_launch.hpp"
#include "harness/cli/shipped_suites.hpp"
#include "harness/cli/store_hook.hpp"
#include "harness/model/baseline_location.hpp"
#include "harness/report/history.hpp"
#include "harness/report/html_report.hpp"
#include "harness/report/printable_comparison.hpp"

namespace fabricgate::cli {

gate::CompareOptions compare_options(bool force, bool force_platform, const std::string& gate) {
  gate::CompareOptions o;
  o.gate = verdict::parse_gate_mode(gate);
  o.force = force;
  o.force_platform = force_platform;
  o.roofline_dirs = {"policies", shipped_policies_dir()};
  return o;
}

namespace fs = std::filesystem;

std::vector<std::string> recorded_confirmations(const RunRecord& run) {
  std::vector<std::string> out;
  if (run.directory.empty()) return out;
  std::error_code ec;
  for (const char* name : {"confirm", "confirm-2"}) {
    const fs::path dir = fs::path(run.directory) / name;
    if (!fs::exists(dir / "run.json", ec)) break;
    out.push_back(dir.string());
  }
  return out;
}

namespace {

// A later launch must belong to the same judgement: same platform, same session when both say,
// started after the first.
void check_later_launch(const RunRecord& first, const RunRecord& later, const std::string& path) {
  if (later.platform != first.platform) {
    throw InputError(path + ": platform \"" + later.platform + "\" is not the first run's \"" +
                     first.platform + "\": later launches must be of the same platform");
  }
  if (!first.session_id.empty() && !later.session_id.empty() &&
      first.session_id != later.session_id) {
    throw InputError(path + ": session \"" + later.session_id + "\" is not the first run's \"" +
                     first.session_id + "\": later launches confirm a launch of their own session");
  }
  if (!first.started_at.empty() && !later.started_at.empty() &&
      later.started_at < first.started_at) {
    throw InputError(path + ": started at " + later.started_at + ", before the first run (" +
                     first.started_at + "): give the launches oldest first");
  }
}

}  // namespace

GatedRun judge_run_files(const std::vector<std::string>& runs, const std::string& baseline_file,
                         const std::string& baselines_dir, const gate::CompareOptions& options,
                         const std::string& store_flag, store::Access store_access) {
  GatedRun g{load_run(runs.at(0)), std::nullopt, {}, false, {}};
  std::vector<std::string> later_paths(runs.begin() + 1, runs.end());
  if (later_paths.empty()) later_paths = recorded_confirmations(g.run);
  std::vector<RunRecord> later;
  for (const std::string& p : later_paths) {
    later.push_back(load_run(p));
    check_later_launch(g.run, later.back(), p);
  }
  const store::StoreLocation store_at = store_for_run(store_flag, g.run);  // InputError first
  g.baseline = baseline_for(g.run, baseline_file, baselines_dir);
  const auto replay = [&](const std::vector<std::string>&, std::size_t attempt) {
    if (attempt > later.size()) return gate::ConfirmationLaunch{};  // no more launches
    return gate::ConfirmationLaunch{later[attempt - 1], later_paths[attempt - 1]};
  };
  gate::JudgeOptions judge;
  judge.compare = options;
  judge.confirm.launches = later.size();
  judge.paired_check =
      recorded_paired_check(runs.at(0));  // what `run` decided on the runner, if it did
  judge.acks = gate::find_acks(baselines_dir, gate::utc_today());  // <baselines-dir>/acks.json
  g.comparison =
      judge_with_history(g.run, g.baseline, replay, store_at, store_access, judge, g.store_failure);
  g.store_failed = !g.store_failure.empty();
  return g;
}

namespace {

// A baseline that can fail nothing is refused before it judges anything (issue 52): a policy
// such as max_band 0.001 or unstable_cv 0.001 reads as stricter in review but makes every key
// NOISY, and a real regression then exits 0. A baseline that gates some keys is used; its
// headline says how many.
std::optional<Baseline> that_can_fail(std::optional<Baseline> b) {
  if (!b || b->entries.empty()) return b;
  const baseline::BaselineStatus status = baseline::baseline_status(*b);
  if (status.gateable > 0) return b;
  // Launches too noisy or too few for any policy are said in the headline ("0 of N keys
  // gated"); refused is a policy that gates nothing where the default policy would gate keys.
  Baseline with_defaults = *b;
  with_defaults.policy = TolerancePolicy::defaults();
  set_family_size(with_defaults.policy, b->entries.size());
  const std::size_t by_default = baseline::baseline_status(with_defaults).gateable;
  if (by_default > 0)
    throw InputError(b->source, "/tolerance_policy",
                     fmt::format("a policy under which some key can gate: under this one none of "
                                 "its {} keys can ({} NOISY: band wider than max_band {:.1f} %, "
                                 "{} with fewer launches than min_runs {}) where the default "
                                 "policy gates {}, so no regression could fail it; `fabricgate "
                                 "baseline status --baseline {}` lists them",
                                 status.keys.size(), status.noisy, 100 * b->policy.max_band,
                                 status.too_few, b->policy.min_runs, by_default, b->source));
  return b;
}

}  // namespace

std::optional<Baseline> baseline_for(const RunRecord& run, const std::string& baseline_file,
                                     const std::string& baselines_dir) {
  return that_can_fail(located_baseline(run, baseline_file, baselines_dir));
}

std::optional<Baseline> located_baseline(const RunRecord& run, const std::string& baseline_file,
                                         const std::string& baselines_dir) {
  if (!baseline_file.empty()) return gate::find_baseline(run, baseline_file, baselines_dir);
  const BaselineLocation where =
      choose_baseline("", baselines_dir, {run.platform, run.suite, run.scenario});
  note_baseline_location(where);
  if (!where.exists) {
    if (!scenario_variant(run.scenario).empty()) {
      std::cerr << "fabricgate: scenario " << report::console_text(run.scenario)
                << " is gated only against a baseline of its own (" << where.path.string()
                << "): none, so its keys are not gated\n";
    }
    return std::nullopt;
  }
  return load_baseline(where.path);
}

verdict::Comparison judge_with_history(const RunRecord& run,
                                       const std::optional<Baseline>& baseline,
                                       const gate::ConfirmationLauncher& confirmations,
                                       const store::StoreLocation& store, store::Access access,
                                       const gate::JudgeOptions& options,
                                       std::string& store_failure) {
  const TolerancePolicy policy = baseline ? baseline->policy : TolerancePolicy::defaults();
  // The platform's gross-change limits live next to its baseline (gross_change.hpp).
  const std::optional<gate::GrossChangeLimits> gross =
      baseline ? gate::find_gross_change_limits(baseline->source, run.platform) : std::nullopt;
  gate::JudgeOptions judge = options;
  if (gross) judge.compare.gross_change = &*gross;
  const std::optional<gate::RunHistory> history =
      load_history(store, run, gate::drift_policy_from(policy).window, access, store_failure);
  return gate::judge_run(run, baseline ? &*baseline : nullptr, confirmations,
                         history ? &*history : nullptr, judge);
}

void report_missing_required_baseline(const verdict::Comparison& c, const RunRecord& run,
                                      bool required) {
  if (c.has_baseline || !required) return;
  std::cerr << "fabricgate: error: no baseline for platform " << run.platform
            << " and --require-baseline was given; create one with:\n  "
            << c.create_baseline_command << "\n";
}

void note_baseline_location(const BaselineLocation& where) {
  const std::string line = describe_baseline_location(where);
  if (!line.empty()) std::cerr << "fabricgate: " << line << "\n";
}

void emit(const verdict::Comparison& comparison, report::ReportFormat format,
          const std::string& out, bool verbose) {
  report::RenderOptions options;
  options.verbose = verbose;
  options.color = out.empty() && format == report::ReportFormat::console &&
                  ::isatty(STDOUT_FILENO) == 1 && std::getenv("NO_COLOR") == nullptr;
  const std::string text = report::render(comparison, format, options);
  if (out.empty()) {
    std::cout << text << std::flush;
  } else {
    write_file_atomically(out, text);
  }
}

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
