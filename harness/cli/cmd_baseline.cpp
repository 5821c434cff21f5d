// fabricgate baseline create|update|status|grow: baselines change through pull requests, so create
// and update print a reviewable diff and write atomically; on any error nothing is overwritten.
// Both warn when most keys would gate nothing; status says per key what is missing; grow proposes
// a first baseline once the recorded sessions can gate.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <set>

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "core/suite.hpp"
#include "core/text_escape.hpp"
#include "harness/baseline/baseline_builder.hpp"
#include "harness/baseline/baseline_diff.hpp"
#include "harness/baseline/baseline_sessions.hpp"
#include "harness/baseline/baseline_status.hpp"
#include "harness/baseline/baseline_window.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/comparison_output.hpp"
#include "harness/gate/fingerprint_guard.hpp"
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
  std::string scenario;  // status: the scenario whose baseline (default: the suite's own)
  std::string baseline;  // update: the file to update
  bool force_platform = false;
  bool reset_policy = false;  // create: the defaults instead of the replaced baseline's policy
  bool all_keys = false;      // status: every key, not only those that gate nothing
  std::string policy_from;    // create/grow: take the tolerance policy of this baseline file
  std::string results_dir;    // grow: where `run` recorded the launches
  double min_gateable = 0.5;  // grow: propose once this share of the reachable keys is gateable
  bool verbose = false;       // grow: list every key that gates nothing
  bool all_hosts = false;     // grow: every host's launches, not only the newest launch's host
  bool replace = false;       // grow: write the proposal over an existing file (its diff shown)
};

// The tolerance policy for a new baseline: another baseline's (`--policy-from`, e.g. the same CPU
// class's file), else the replaced file's unless --reset-policy, else the policy of the baseline
// `compare` would choose for these runs (the platform's committed file: a CPU kind's floors and
// max_band were reviewed for it; issue 53: a baseline written elsewhere took the defaults), else
// the defaults. `said` gets the line that names where it came from ("" for the defaults).
TolerancePolicy policy_for_new(const BaselineArgs& a, const std::optional<Baseline>& previous,
                               const BaselineFor& what = {},
                               const std::filesystem::path& target = {},
                               std::string* said = nullptr) {
  if (!a.policy_from.empty()) return load_baseline(a.policy_from).policy;
  if (previous && !a.reset_policy) return previous->policy;
  if (!a.reset_policy && !what.platform.empty()) {
    const BaselineLocation committed = choose_policy_baseline(a.baselines_dir, what);
    const std::string& platform = what.platform;
    std::error_code ec;
    if (committed.exists && !std::filesystem::equivalent(committed.path, target, ec)) {
      const Baseline b = load_baseline(committed.path);
      if (b.platform == platform) {
        if (said)
          *said = "tolerance policy: " + committed.path.string() +
                  "'s (the platform's baseline; --reset-policy for the defaults, --policy-from "
                  "F for another)\n";
        return b.policy;
      }
    }
  }
  return TolerancePolicy::defaults();
}

// Checked before any run is read, so a wrong command line fails fast.
void require_one_output(const BaselineArgs& a, const std::string& command) {
  if (!a.out.empty() && !a.baselines_dir.empty())
    throw InputError("baseline " + command + ": give --out FILE or --baselines-dir DIR, not both");
}

// The file create and grow write: --out, else the one baseline choice's per-suite file
// (<--baselines-dir or baselines/>/<platform>/<suite>[--<scenario>].json; the per-platform file
// when the suite is a path and names no key), the file the runs' scenario is read from.
std::filesystem::path output_file(const BaselineArgs& a, const BaselineFor& what) {
  if (!a.out.empty()) return a.out;
  const BaselineLocation where = choose_baseline("", a.baselines_dir, what);
  return where.suite_path.empty() ? where.path : where.suite_path;
}

std::vector<RunRecord> load_runs(const std::vector<std::string>& paths) {
  std::vector<RunRecord> runs;
  runs.reserve(paths.size());
  for (const std::string& p : paths) runs.push_back(load_run(p));
  return runs;
}

// At most `limit` lines, then how many more (grow's status fits one screen).
void print_left_out(const std::vector<std::string>& left_out,
                    std::size_t limit = std::numeric_limits<std::size_t>::max()) {
  for (std::size_t i = 0; i < left_out.size() && i < limit; ++i)
    std::cout << report::console_text("left out: " + left_out[i]) << "\n";
  if (left_out.size() > limit)
    std::cout << "left out: " << left_out.size() - limit << " more (--verbose lists each)\n";
}

constexpr std::size_t kGrowLeftOutLines = 5;

// grow grows the runner's own baseline: the launches of the host that recorded the newest one.
// A results directory may also hold other machines' runs (this repository's committed evidence
// under results/<platform>/, a copied directory); each would count as a session of its own and
// make a proposal that no launch of this runner supports. --all-hosts takes every host's (a
// fleet's shared results directory).
void keep_the_runners_own(std::vector<RunRecord>& recorded) {
  if (recorded.empty()) return;
  const auto newest = std::max_element(
      recorded.begin(), recorded.end(),
      [](const RunRecord& x, const RunRecord& y) { return x.started_at < y.started_at; });
  const std::string host = newest->host_id;
  std::set<std::string> others;
  std::size_t dropped = 0;
  std::erase_if(recorded, [&](const RunRecord& r) {
    if (r.host_id == host) return false;
    others.insert(r.host_id);
    ++dropped;
    return true;
  });
  if (dropped == 0) return;
  std::cout << report::console_text(fmt::format(
      "left out: {} launch(es) of {} other host(s): grow takes the launches of the host that "
      "recorded the newest one ({}); --all-hosts takes every host's\n",
      dropped, others.size(), host.empty() ? std::string("unknown") : host));
}

// A baseline whose keys are mostly NOISY or short of launches passes everything: say so, with the
// counts and the launches that would make them gateable (harness/baseline/baseline_status.hpp).
void warn_if_mostly_ungated(const std::filesystem::path& file, Baseline baseline) {
  baseline.source = file.string();
  const std::string warning =
      baseline::baseline_gateability_warning(baseline::baseline_status(baseline));
  if (!warning.empty()) std::cerr << report::console_text("fabricgate: " + warning) << "\n";
}

int run_create(const BaselineArgs& a) {
  require_one_output(a, "create");
  const std::vector<RunRecord> runs = load_runs(a.from);
  const std::string platform = a.platform.empty() ? runs.front().platform : a.platform;
  require_safe_name(platform, "--platform", "");  // before it becomes part of a path
  const std::string suite = a.suite.empty() ? runs.front().suite : a.suite;
  if (!a.suite.empty()) require_safe_name(suite, "--suite", "");
  const BaselineFor what{platform, suite, runs.front().scenario};
  const std::filesystem::path target = output_file(a, what);
  require_writable_file(target, a.out.empty() ? "--baselines-dir" : "--out");
  std::optional<Baseline> previous;
  std::error_code ec;
  if (std::filesystem::exists(target, ec))
    previous = load_baseline(target);  // diff against what it replaces
  gate::require_file_named_for(target, platform, previous ? &*previous : nullptr, a.force_platform);
  baseline::BaselineBuildOptions options;
  options.platform = a.platform;
  options.now = baseline::utc_now_iso8601();
  // A re-created baseline keeps the thresholds someone tuned in review unless told otherwise.
  std::string policy_said;
  options.policy = policy_for_new(a, previous, what, target, &policy_said);
  // The launches were named one by one, for a file that is reviewed in a pull request: a busy
  // one is kept but said loudly (grow and update, which pick launches themselves, leave it out).
  std::vector<std::string> busy;
  baseline::quiet_runs(runs, options.policy.busy_cpu_pressure, busy);
  for (const std::string& b : busy)
    std::cerr << report::console_text("fabricgate: warning: " + b +
                                      "; it is in this baseline because --from named it")
              << "\n";
  const baseline::BuiltBaseline built = baseline::create_baseline(runs, options);
  save_baseline(target, built.baseline);
  // Session and host ids, times and keys come from run files: shown inert (console_text).
  std::cout << report::console_text("wrote " + target.string() + "\n" +
                                    baseline::render_baseline_diff(baseline::diff_baselines(
                                        previous ? &*previous : nullptr, built.baseline)) +
                                    baseline::describe_sessions(built.baseline) + policy_said);
  print_left_out(built.left_out);
  warn_if_mostly_ungated(target, built.baseline);
  return 0;
}

int run_update(const BaselineArgs& a) {
  const Baseline old = load_baseline(a.baseline);
  const std::vector<RunRecord> loaded = load_runs(a.from);
  gate::require_runs_platform(loaded, old, a.force_platform);
  std::vector<std::string> busy;  // launches of a busy runner never join the windows
  const std::vector<RunRecord> runs =
      baseline::quiet_runs(loaded, old.policy.busy_cpu_pressure, busy);
  print_left_out(busy);
  if (runs.empty())
    throw InputError(
        "baseline update: every launch given was measured on a busy runner; nothing "
        "to merge");
  const baseline::WindowUpdate update =
      baseline::update_baseline_window(old, runs, baseline::utc_now_iso8601());
  const baseline::BuiltBaseline& built = update.built;
  save_baseline(a.baseline, built.baseline);
  std::cout << report::console_text(
      fmt::format("updated {}: {} passing key launch(es) merged into windows of {} launches "
                  "(whole sessions dropped from the oldest, never below min_sessions {})\n",
                  a.baseline, update.launches_merged, old.policy.window, old.policy.min_sessions) +
      baseline::render_baseline_diff(baseline::diff_baselines(&old, built.baseline)) +
      baseline::describe_sessions(built.baseline));
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
    const BaselineLocation where =
        choose_baseline("", a.baselines_dir, {a.platform, a.suite, a.scenario});
    if (!where.exists) {
      throw InputError(where.path.string(), "",
                       "no baseline here yet (`fabricgate baseline create` makes one)");
    }
    note_baseline_location(where);
    file = where.path;
  }
  const Baseline baseline = load_baseline(file);
  std::cout << report::console_text(
      baseline::render_baseline_status(baseline::baseline_status(baseline), a.all_keys));
  return 0;
}

// The suite's default-scenario launches `run` recorded for one platform under the results
// directory (<dir>/<platform>/<run id>-<suite>-default/run.json), oldest first. Confirmation
// launches live below their run and are not launches of their own.
std::vector<std::filesystem::path> recorded_launches(const std::filesystem::path& platform_dir,
                                                     const std::string& suite) {
  std::vector<std::filesystem::path> found;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(platform_dir, ec)) {
    const std::string name = e.path().filename().string();
    const std::string tail = "-" + suite + "-default";
    if (name.size() > tail.size() && name.ends_with(tail) &&
        std::filesystem::is_regular_file(e.path() / "run.json", ec))
      found.push_back(e.path());
  }
  std::sort(found.begin(), found.end());
  return found;
}

// The one platform under the results directory that holds launches of the suite, when --platform
// is not given.
std::string only_platform_with(const std::filesystem::path& dir, const std::string& suite) {
  std::vector<std::string> platforms;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.is_directory(ec) && !recorded_launches(e.path(), suite).empty())
      platforms.push_back(e.path().filename().string());
  std::sort(platforms.begin(), platforms.end());
  if (platforms.size() == 1) return platforms.front();
  if (platforms.empty())
    throw InputError(dir.string(), "--results-dir",
                     fmt::format("no launches of suite '{}' recorded here yet "
                                 "(<dir>/<platform>/<run id>-{}-default/run.json)",
                                 suite, suite));
  std::string list;
  for (const std::string& p : platforms) list += (list.empty() ? "" : ", ") + p;
  throw InputError(dir.string(), "--platform",
                   "launches of several platforms are recorded here (" + list + "): name one");
}

// baseline grow: record-until-gateable. Nothing is written until the recorded launches span
// policy.min_sessions sessions (the between-session term needs them) and at least
// --min-gateable of the keys would gate; each call says where the growing stands.
// The sessions a proposal came from: every one with --verbose, else one line.
std::string sessions_line(const Baseline& b, bool verbose) {
  if (verbose || b.sessions.size() <= 1) return baseline::describe_sessions(b);
  std::set<std::string> hosts;
  for (const BaselineSession& s : b.sessions) hosts.insert(s.host);
  return fmt::format("sessions: {} on {} host(s), started {} to {} (--verbose lists them)\n",
                     b.sessions.size(), hosts.size(), b.sessions.front().started_at,
                     b.sessions.back().started_at);
}

// --suite of grow: a suite name, or a suite file whose "name" the launches were recorded under
// (the action passes its `suite` input as given, and a file's name may differ from its "name").
std::string grown_suite_name(const std::string& given) {
  if (given.find('/') == std::string::npos && !given.ends_with(".json")) return given;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(given, ec))
    throw InputError(given, "--suite", "a suite name, or a suite file that exists");
  return load_suite(given).name;
}

int run_grow(const BaselineArgs& given) {
  BaselineArgs a = given;
  a.suite = grown_suite_name(given.suite);
  require_one_output(a, "grow");
  if (!(a.min_gateable > 0 && a.min_gateable <= 1))
    throw InputError("--min-gateable: expected a share of keys in (0, 1]");
  require_safe_name(a.suite, "--suite", "");
  const std::filesystem::path results = a.results_dir;
  std::error_code ec;
  if (!std::filesystem::is_directory(results, ec))
    throw InputError(results.string(), "--results-dir", "a directory of recorded runs");
  const std::string platform =
      a.platform.empty() ? only_platform_with(results, a.suite) : a.platform;
  require_safe_name(platform, "--platform", "");
  const std::vector<std::filesystem::path> dirs = recorded_launches(results / platform, a.suite);
  // The results directory persists on a self-hosted runner: one hung, cut-short or misfiled
  // launch must not stop every later grow. Each is left out with why, as `store import` does;
  // suite, scenario and platform come from the record, not the directory's name.
  std::vector<RunRecord> recorded;
  std::vector<std::string> unusable;
  for (const auto& d : dirs) {
    try {
      RunRecord r = load_run(d.string());
      if (!r.complete) {
        unusable.push_back(d.string() + ": incomplete (" + r.incomplete_reason + ")");
      } else if (r.platform != platform || r.suite != a.suite ||
                 !(r.scenario.empty() || r.scenario == "default")) {
        unusable.push_back(d.string() + ": a run of " + r.platform + " " + r.suite + "/" +
                           r.scenario + ", not of " + platform + " " + a.suite + "/default");
      } else {
        recorded.push_back(std::move(r));
      }
    } catch (const InputError& e) {
      unusable.push_back(d.string() + ": unreadable: " + e.what());
    }
  }
  print_left_out(unusable, kGrowLeftOutLines);
  if (!a.all_hosts) keep_the_runners_own(recorded);
  const BaselineFor what{platform, a.suite, "default"};  // grow takes default-scenario launches
  const std::filesystem::path target = output_file(a, what);
  std::string policy_said;  // the platform's own file (even the one grow would replace)
  const TolerancePolicy policy = policy_for_new(a, std::nullopt, what, {}, &policy_said);
  std::cout << report::console_text(policy_said);
  std::vector<std::string> busy;  // launches of a busy runner never make a level
  const std::vector<RunRecord> runs =
      baseline::quiet_runs(recorded, policy.busy_cpu_pressure, busy);
  print_left_out(busy, kGrowLeftOutLines);

  std::set<std::string> sessions;
  for (const baseline::RunSession& s : baseline::sessions_of_runs(runs)) sessions.insert(s.id);
  const auto need_sessions = static_cast<std::size_t>(std::max(policy.min_sessions, 1));
  std::cout << fmt::format(
      "growing the {} baseline of suite {}: {} launch(es) in {} session(s) "
      "recorded in {}\n",
      platform, a.suite, runs.size(), sessions.size(),
      report::console_text((results / platform).string()));
  if (sessions.size() < need_sessions || runs.size() < static_cast<std::size_t>(policy.min_runs)) {
    std::cout << fmt::format(
        "not proposed yet: {} more session(s) needed (min_sessions {}; a session is a sitting: "
        "the launches of a host less than {} minutes apart; sittings hours apart teach the "
        "between-session noise)\n",
        need_sessions > sessions.size() ? need_sessions - sessions.size() : 0, policy.min_sessions,
        kSittingGapMinutes);
    return 0;
  }
  baseline::BaselineBuildOptions options;
  options.platform = platform;
  options.now = baseline::utc_now_iso8601();
  options.policy = policy;
  baseline::BuiltBaseline built = baseline::create_baseline(runs, options);
  built.baseline.source = target.string();
  const baseline::BaselineStatus status = baseline::baseline_status(built.baseline);
  const std::size_t keys = status.keys.size();
  // The share counts the keys more launches can still make gateable: a NOISY key whose spread no
  // launch count tames would keep grow waiting for ever (on the 2-core AMD box 71 of 115 keys,
  // which left 33 gateable of 44 reachable after 75 launches in four sittings: 29 % of all keys,
  // never the old 50 %; results/cpu-amd-epyc-c2/grow-s17/).
  const std::size_t reachable = keys - std::min(keys, status.never_gateable);
  const double share =
      reachable ? static_cast<double>(status.gateable) / static_cast<double>(reachable) : 0;
  const std::string not_listed =
      a.verbose || keys == status.gateable
          ? std::string()
          : fmt::format("{} key(s) gate nothing now: --verbose lists each with why\n",
                        keys - status.gateable);
  if (status.gateable == 0 || share < a.min_gateable) {
    std::cout << report::console_text(
        fmt::format("not proposed yet: {} of {} keys would gate, {:.0f} % of the {} that more "
                    "launches can make gateable (--min-gateable {:.0f} %); keep recording "
                    "sessions\n",
                    status.gateable, keys, 100 * share, reachable, 100 * a.min_gateable) +
        baseline::render_baseline_status(status, false, a.verbose) + not_listed);
    return 0;
  }
  const char* flag = a.out.empty() ? "--baselines-dir" : "--out";
  require_writable_file(target, flag);
  // A file already there (a committed baseline, an earlier proposal) is never replaced unseen:
  // its diff is shown, and only --replace writes over it.
  std::string replaced;
  if (std::filesystem::exists(target, ec)) {
    const Baseline existing = load_baseline(target);
    replaced = baseline::render_baseline_diff(baseline::diff_baselines(&existing, built.baseline));
    if (!a.replace) {
      std::cout << report::console_text(replaced);
      throw InputError(target.string(), flag,
                       "a file that does not exist yet: it holds a baseline (the proposal's diff "
                       "against it is above); --replace writes the proposal over it");
    }
  }
  save_baseline(target, built.baseline);
  std::cout << report::console_text(
      fmt::format("proposed {}: {} of {} keys gate ({} that no number of launches can make "
                  "gateable); "
                  "commit it through a pull request\n",
                  target.string(), status.gateable, keys, keys - reachable) +
      replaced + sessions_line(built.baseline, a.verbose) +
      baseline::render_baseline_status(status, false, a.verbose) + not_listed);
  print_left_out(built.left_out,
                 a.verbose ? std::numeric_limits<std::size_t>::max() : kGrowLeftOutLines);
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
      "  fabricgate baseline status --platform h200-x1 --suite p2p\n"
      "  fabricgate baseline grow --results-dir results --suite cpu");
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
                   "Use the default tolerance policy instead of the replaced baseline's (or, "
                   "for a new file, the platform's baseline's in --baselines-dir)");
  create->add_option("--policy-from", create_args->policy_from,
                     "Take the tolerance policy of this baseline file (e.g. another machine kind "
                     "of the same class)");
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
  status->add_option("--scenario", status_args->scenario,
                     "Scenario of the baseline (with --platform): <suite>--<scenario>.json");
  status->add_option("--baselines-dir", status_args->baselines_dir,
                     "Directory of baselines (default: baselines/)");
  status->add_flag("--all-keys", status_args->all_keys,
                   "List every key (default: only keys that gate nothing now)");
  status->callback([status_args, &exit_code] { exit_code = run_status(*status_args); });

  auto grow_args = std::make_shared<BaselineArgs>();
  auto* grow = cmd->add_subcommand(
      "grow",
      "Propose a first baseline from the launches `run` recorded: nothing is written until they "
      "span min_sessions sessions and --min-gateable of the keys that can gate would; says where "
      "it stands");
  grow->footer(
      "Examples:\n"
      "  fabricgate baseline grow --results-dir /var/lib/fabricgate/results --suite cpu\n"
      "  fabricgate baseline grow --results-dir results --suite p2p --out proposal/p2p.json");
  grow->add_option("--results-dir", grow_args->results_dir,
                   "Results directory the runs were recorded in (<dir>/<platform>/<run id>/)")
      ->required();
  grow->add_flag("--replace", grow_args->replace,
                 "Write the proposal over an existing file (its diff is shown; without this "
                 "flag an existing file is never replaced: exit 2)");
  grow->add_flag("--all-hosts", grow_args->all_hosts,
                 "Take every host's launches (a fleet's shared results directory); default: the "
                 "launches of the host that recorded the newest one");
  grow->add_flag("--verbose", grow_args->verbose,
                 "List every key that gates nothing, with why, and every session");
  grow->add_option("--suite", grow_args->suite,
                   "Suite whose default-scenario launches count: its name, or its file (the "
                   "file's \"name\" is the suite)")
      ->required();
  grow->add_option("--platform", grow_args->platform,
                   "Platform key (default: the only platform with launches of the suite)");
  grow->add_option("--out", grow_args->out, "Write the proposal to this file");
  grow->add_option("--baselines-dir", grow_args->baselines_dir,
                   "Write the proposal as <DIR>/<platform>/<suite>.json (default: baselines/)");
  grow->add_option("--policy-from", grow_args->policy_from,
                   "Take the tolerance policy of this baseline file");
  grow->add_option("--min-gateable", grow_args->min_gateable,
                   "Share of the keys more launches can make gateable (NOISY keys whose spread "
                   "no launch count tames are not waited for) that must gate before a proposal "
                   "is written (default 0.5)");
  grow->callback([grow_args, &exit_code] { exit_code = run_grow(*grow_args); });
}

}  // namespace fabricgate::cli
