// fabricgate ab --suite S --a ITEM... --b ITEM...: the A/B upgrade gate. Launches side A and side B
// interleaved (A B A B ..., a fresh process each), pair after pair until every key is decided
// (--min-pairs .. --max-pairs; --pairs N: exactly N), verifies the NCCL each launch really
// loaded, and compares B with A per key (ratio with a distribution-free interval).
// Exit: 0 every key decided within tolerance of A, 1 a key is worse beyond tolerance (or lost, or
// B has a worse second state), 2 bad input or a side that loaded the wrong library, 3 not decided
// (a key still undecided after --max-pairs, or a side on two levels) or infrastructure failure
// (a launch crashed or hung, the machine changed between launches: the pairs finished before are
// still compared in ab.json).
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "core/text_escape.hpp"
#include "harness/ab/ab_bisect.hpp"
#include "harness/ab/ab_sequential.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/shipped_suites.hpp"
#include "harness/launch/ab_runner.hpp"
#include "harness/launch/ab_spec.hpp"
#include "harness/launch/suite_env_policy.hpp"
#include "harness/model/baseline_location.hpp"
#include "harness/report/ab_report.hpp"

namespace fabricgate::cli {

namespace {

struct AbArgs {
  launch::AbRunOptions ab;
  std::vector<std::string> a_items;
  std::vector<std::string> b_items;
  std::string scenario;
  std::string bench;
  std::string suites_dir;
  std::string platform;
  double tolerance = -1;
  int pairs = 0;  // --pairs N: the fixed design, min = max = N
  bool bisect = false;
  std::vector<std::string> candidates;  // --candidate ITEM, oldest first
  int timeout_s = launch::kDefaultRunTimeoutSeconds;
  int lock_timeout_s = launch::kDefaultLockTimeoutSeconds;
  std::string lock_file = launch::kDefaultLockFile;
  std::string baselines_dir = kBaselinesDir;
  bool sides_from_file = false;  // --sides-from-file: the items come from a file a PR may change
};

// --sides-from-file (ci/paired-check): the items of both sides come from a settings file that a
// pull request may change, so they may tune the fabric and nothing else. A NAME=VALUE item obeys
// the suite env policy (no loader, PATH, plugin or MPI-agent variable: that would run code the
// file's author chose on every rank), and wrap= and nccl= items (a program to run, a library to
// load) are refused. Checked before anything runs.
void refuse_launcher_items(const std::vector<std::string>& items, const std::string& flag) {
  for (const std::string& item : items) {
    const std::size_t eq = item.find('=');
    const std::string name = item.substr(0, eq);
    if (name == "wrap" || name == "nccl")
      throw InputError(flag + " " + launch::shown_item(item) +
                       ": a settings file may not name a program or a library (" + name +
                       "=) under --sides-from-file; pass it on the command line instead");
    // unset=NAME changes what loads as much as NAME=VALUE does: the same policy, on NAME.
    const std::string variable =
        name == "unset" && eq != std::string::npos ? item.substr(eq + 1) : name;
    if (eq != std::string::npos && name != "label" && launch::is_launcher_env(variable))
      throw InputError(flag + " " + launch::shown_item(item) + ": " + variable +
                       " changes which launcher, loader, library or plugin runs; a settings file "
                       "may only tune the fabric under --sides-from-file (the suite env policy, "
                       "docs/THREAT-MODEL.md)");
  }
}

const char* outcome_name(ab::ProbeOutcome o) {
  switch (o) {
    case ab::ProbeOutcome::good: return "good";
    case ab::ProbeOutcome::bad: return "bad";
    case ab::ProbeOutcome::undecided: return "undecided";
  }
  return "?";
}

// --bisect: side B of each probe is --b's items plus one --candidate item, labelled c<i> unless
// --b names it; every side is parsed (and every nccl=/wrap= checked) before the first launch.
int bisect_command(AbArgs& a) {
  if (a.candidates.empty())
    throw InputError("--bisect: expected --candidate ITEM, one per candidate, oldest first");
  std::vector<ab::AbSide> sides;
  for (std::size_t i = 0; i < a.candidates.size(); ++i) {
    std::vector<std::string> items = a.b_items;
    items.push_back(a.candidates[i]);
    bool labelled = false;
    for (const std::string& it : items) labelled = labelled || it.rfind("label=", 0) == 0;
    if (!labelled) items.push_back("label=c" + std::to_string(i + 1));
    sides.push_back(launch::parse_ab_side("b", items));
  }
  std::vector<std::string> dirs(sides.size());
  const ab::BisectResult r = ab::bisect_first_bad(sides.size(), [&](std::size_t i) {
    launch::AbRunOptions o = a.ab;
    o.b = sides[i];
    o.run_id_tag = "-c" + std::to_string(i + 1);
    std::cerr << "fabricgate ab --bisect: probe candidate " << i + 1 << " of " << sides.size()
              << " (" << a.candidates[i] << ")\n";
    const launch::AbRunResult res = launch::run_ab(o);
    dirs[i] = res.dir.string();
    write_file_atomically(res.dir / "ab.md", report::without_workflow_commands(
                                                 report::render_ab_markdown(res.comparison)));
    std::cerr << "fabricgate ab --bisect: candidate " << i + 1 << ": " << res.comparison.headline()
              << "\n";
    return ab::probe_outcome(res.comparison);  // the settled A/B's answer (ab_bisect.hpp)
  });
  json probes = json::array();
  for (const ab::BisectProbe& p : r.probes) {
    probes.push_back({{"candidate", p.candidate + 1},
                      {"item", a.candidates[p.candidate]},
                      {"outcome", outcome_name(p.outcome)},
                      {"dir", dirs[p.candidate]}});
  }
  json doc = {{"schema", "fabricgate.ab-bisect/1"},
              {"candidates", a.candidates},
              {"first_bad", r.first_bad ? json(*r.first_bad + 1) : json(nullptr)},
              {"stopped", r.stopped},
              {"probes", probes},
              {"probe_bound", ab::bisect_probe_bound(a.candidates.size())},
              {"summary", r.summary}};
  // Next to the probes' A/B directories (all under results/<platform>/).
  const std::filesystem::path out =
      std::filesystem::path(dirs[r.probes.front().candidate]).parent_path() /
      (std::filesystem::path(dirs[r.probes.front().candidate]).filename().string() +
       "-bisect.json");
  write_json_atomically(out, doc);
  std::cout << "fabricgate ab --bisect: " << r.summary << "\n";
  for (const ab::BisectProbe& p : r.probes) {
    std::cout << "  candidate " << p.candidate + 1 << " (" << a.candidates[p.candidate]
              << "): " << outcome_name(p.outcome) << "  " << dirs[p.candidate] << "\n";
  }
  std::cerr << "fabricgate: bisection in " << out.string() << "\n";
  if (r.stopped) return static_cast<int>(ExitCode::infra_failure);
  return static_cast<int>(r.first_bad ? ExitCode::gate_failure : ExitCode::pass);
}

int ab_command(AbArgs& a) {
  // Both specs are checked before anything is launched.
  if (a.sides_from_file) {
    refuse_launcher_items(a.a_items, "--a");
    refuse_launcher_items(a.b_items, "--b");
  }
  a.ab.a = launch::parse_ab_side("a", a.a_items);
  a.ab.b = launch::parse_ab_side("b", a.b_items);
  if (!a.bisect && !a.candidates.empty()) throw InputError("--candidate: only with --bisect");
  launch::RunOptions& run = a.ab.run;
  run.bench = a.bench.empty() ? launch::default_bench_path() : std::filesystem::path(a.bench);
  if (!a.suites_dir.empty()) run.suite_dirs.push_back(a.suites_dir);
  run.suite_dirs.push_back("suites");
  run.suite_dirs.push_back(shipped_suites_dir());
  if (!a.platform.empty()) run.platform = a.platform;
  if (!a.scenario.empty()) run.scenarios = {a.scenario};
  run.timeout = std::chrono::seconds(a.timeout_s);
  run.lock_timeout = std::chrono::seconds(a.lock_timeout_s);
  run.lock_file = a.lock_file;
  a.ab.baselines_dir = a.baselines_dir;
  if (a.tolerance >= 0) a.ab.compare.tolerance = a.tolerance;
  if (a.pairs > 0) a.ab.schedule = {a.pairs, a.pairs};
  ab::check_schedule(a.ab.schedule);
  if (a.bisect) return bisect_command(a);

  const launch::AbRunResult result = launch::run_ab(a.ab);
  const ab::AbComparison& c = result.comparison;
  const bool color = ::isatty(STDOUT_FILENO) == 1 && std::getenv("NO_COLOR") == nullptr;
  std::cout << report::without_workflow_commands(report::render_ab_console(c, color)) << std::flush;
  write_file_atomically(result.dir / "ab.md",
                        report::without_workflow_commands(report::render_ab_markdown(c)));
  report::append_ab_step_summary(c);
  std::cerr << "fabricgate: A/B results in " << result.dir.string() << " (ab.json, ab.md)\n";
  return static_cast<int>(c.exit_code);
}

}  // namespace

void add_ab_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<AbArgs>();
  auto* cmd = app.add_subcommand(
      "ab", "A/B gate: run side A and side B interleaved (A B A B ...), compare B with A per key");
  cmd->footer(
      "Side items (--a/--b, repeatable): NAME=VALUE sets an environment variable for every rank; "
      "nccl=PATH loads that NCCL (a libnccl.so.2 or a directory holding one, also DIR/lib); "
      "wrap=CMD runs the side's ranks under CMD (e.g. wrap=taskset -c 0; no shell, the program "
      "absolute or on PATH); unset=NAME leaves NAME unset for the side's launcher and ranks (the "
      "baseline's side of a setting it did not have); label=NAME names the side. No items: the "
      "machine as is. Each "
      "launch's loaded NCCL is verified (wrong library: exit 2). Pairs are added until every key "
      "is decided: FAIL when the whole confidence interval of B/A is worse than 1 - tolerance, "
      "PASS only when the whole interval lies above 1 - tolerance; after --max-pairs an open key "
      "is UNDECIDED (exit 3, never a pass). The confidence is split over the looks so an A/A "
      "fails a key with at most 1 - confidence however many pairs it takes. A side whose "
      "launches sit on two levels is BIMODAL (B worse in a state: exit 1) or TWO-STATES (exit 3). "
      "Results: results/<platform>/<run_id>-ab/{a-1,b-1,...}/ + ab.json, ab.md. Exit: 0 pass, 1 "
      "fail, 2 bad input, 3 not decided or a launch failed. Driver upgrades cannot be switched "
      "inside one job: see docs/AB-GATE.md.\n"
      "Example:\n"
      "  fabricgate ab --suite ab-nccl --max-pairs 12 --a label=current --b "
      "nccl=/opt/nccl-2.28.9/lib --b label=nccl-2.28.9\n"
      "  fabricgate ab --suite ab-nccl --a label=current --bisect --candidate "
      "nccl=/opt/nccl-2.27.5 "
      "--candidate nccl=/opt/nccl-2.27.7 --candidate nccl=/opt/nccl-2.28.3");
  cmd->add_option("--suite", a->ab.run.suite, "Suite name (suites/<name>.json) or file")
      ->required();
  cmd->add_option(
      "--a", a->a_items,
      "Side A items: NAME=VALUE, nccl=PATH, wrap=CMD, unset=NAME, label=NAME (repeatable)");
  cmd->add_option(
      "--b", a->b_items,
      "Side B items: NAME=VALUE, nccl=PATH, wrap=CMD, unset=NAME, label=NAME (repeatable)");
  auto* min_pairs = cmd->add_option("--min-pairs", a->ab.schedule.min_pairs,
                                    "Pairs before the first look (then one look per pair)")
                        ->check(CLI::Range(1, 1000))
                        ->capture_default_str();
  auto* max_pairs = cmd->add_option("--max-pairs", a->ab.schedule.max_pairs,
                                    "Most pairs: keys still open then are UNDECIDED (exit 3)")
                        ->check(CLI::Range(1, 1000))
                        ->capture_default_str();
  cmd->add_option("--pairs", a->pairs,
                  "Fixed design: exactly N pairs, one look (--min-pairs N --max-pairs N)")
      ->check(CLI::Range(1, 1000))
      ->excludes(min_pairs)
      ->excludes(max_pairs);
  cmd->add_flag("--bisect", a->bisect,
                "Find the first bad of the --candidate list (oldest first): one A/B per probe, "
                "side A against --b's items plus the candidate, at most ceil(log2 n) + 1 A/Bs; "
                "exit 1 when one is bad, 0 when none, 3 when a probe is not decided");
  cmd->add_option("--candidate", a->candidates,
                  "With --bisect: one side item per candidate (nccl=PATH, NAME=VALUE, wrap=CMD), "
                  "repeatable, in order");
  cmd->add_option("--tolerance", a->tolerance,
                  "One tolerance (fraction, e.g. 0.05) for every key instead of the platform's "
                  "tolerance policy")
      ->check(CLI::Range(0.0, 0.99));
  cmd->add_option("--confidence", a->ab.compare.confidence,
                  "Family confidence: 1 - the false-alarm rate per key over all looks (each "
                  "look's interval gets 1 - (1 - confidence) / looks)")
      ->check(CLI::Range(0.5, 0.999))
      ->capture_default_str();
  cmd->add_option("--baseline", a->ab.policy_baseline,
                  "Take the tolerance policy from this baseline (default: "
                  "<baselines-dir>/<platform>/<suite>.json, else <platform>.json, if present)");
  cmd->add_option("--baselines-dir", a->baselines_dir, "Directory of baselines")
      ->capture_default_str();
  cmd->add_option("--scenario", a->scenario, "Scenario both sides run (default: default)");
  cmd->add_option("--ranks", a->ab.run.ranks, "Processes to launch (default: the suite's)");
  cmd->add_option("--launcher", a->ab.run.launcher, "auto|mpirun|srun|direct")
      ->check(CLI::IsMember({"auto", "mpirun", "srun", "direct"}))
      ->capture_default_str();
  cmd->add_option("--hostfile", a->ab.run.hostfile, "mpirun hostfile for multi-node runs");
  cmd->add_option("--results-dir", a->ab.run.results_dir, "Where run directories go")
      ->capture_default_str();
  cmd->add_option("--platform", a->platform, "Platform key instead of the fingerprint's");
  cmd->add_option("--bench", a->bench,
                  "Path of fabricgate-bench (default: next to fabricgate, then PATH)");
  cmd->add_option("--suites-dir", a->suites_dir, "Extra directory searched for suite files");
  cmd->add_option("--timeout", a->timeout_s,
                  "Seconds one launch may take before it is killed (exit 3)")
      ->check(CLI::Range(1, 7 * 24 * 3600))
      ->capture_default_str();
  cmd->add_option("--lock", a->lock_file, "Runner lock file, held across all launches")
      ->capture_default_str();
  cmd->add_flag("--sides-from-file", a->sides_from_file,
                "The --a/--b items come from a settings file a pull request may change "
                "(ci/paired-check): NAME=VALUE must not be a launcher, loader or plugin variable, "
                "and wrap=/nccl= items are refused");
  cmd->add_flag("--allow-suite-launcher-env", a->ab.run.allow_suite_launcher_env,
                "Let the suite's env set variables that change what the launcher and ranks load "
                "(LD_*, PATH, PYTHONPATH, *_PLUGIN, OMPI_MCA_*, ...); refused otherwise");
  cmd->add_option("--lock-timeout", a->lock_timeout_s, "Seconds to wait for another run to finish")
      ->check(CLI::Range(0, 7 * 24 * 3600))
      ->capture_default_str();
  cmd->callback([a, &exit_code] { exit_code = ab_command(*a); });
}

}  // namespace fabricgate::cli
