#include "harness/launch/ab_runner.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/suite.hpp"
#include "harness/ab/ab_json.hpp"
#include "harness/ab/ab_library_guard.hpp"
#include "harness/ab/ab_sequential.hpp"
#include "harness/fingerprint/fingerprint.hpp"
#include "harness/launch/ab_spec.hpp"
#include "harness/launch/run_assembly.hpp"
#include "harness/launch/run_lock.hpp"
#include "harness/launch/suite_env_policy.hpp"
#include "harness/model/baseline.hpp"
#include "harness/model/baseline_location.hpp"
#include "harness/model/run_record.hpp"

namespace fabricgate::launch {

namespace fs = std::filesystem;

namespace {

std::string string_in(const json& object, const char* field) {
  if (!object.is_object()) return {};
  const auto it = object.find(field);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// run.json: launch.{nccl_version,nccl_library,mpi_version} from the records header,
// ranks[].nccl_library from the bench's rank table, capture.{nccl_version,nccl_versions_full} from
// NCCL's logs.
ab::LoadedLibraries loaded_libraries(const json& run) {
  ab::LoadedLibraries l;
  const json header = run.value("launch", json::object());
  l.nccl_version = string_in(header, "nccl_version");
  l.mpi_version = string_in(header, "mpi_version");
  if (const auto ranks = run.find("ranks"); ranks != run.end() && ranks->is_array()) {
    for (const json& r : *ranks) {
      if (const std::string path = string_in(r, "nccl_library"); !path.empty())
        l.nccl_libraries.insert(path);
    }
  }
  if (const std::string path = string_in(header, "nccl_library");
      l.nccl_libraries.empty() && !path.empty()) {
    l.nccl_libraries.insert(path);
  }
  const json capture = run.value("capture", json::object());
  l.capture_nccl_version = string_in(capture, "nccl_version");
  if (const auto full = capture.find("nccl_versions_full");
      full != capture.end() && full->is_array()) {
    for (const json& v : *full) {
      if (v.is_string() && !v.get<std::string>().empty())
        l.capture_nccl_versions_full.insert(v.get<std::string>());
    }
  }
  return l;
}

// The baseline gate's tolerance policy for this platform, so an A/B is as strict as the gate.
void choose_policy(const AbRunOptions& o, const std::string& platform, ab::AbOptions& compare) {
  if (compare.tolerance) {
    compare.tolerance_source = fmt::format("--tolerance {:.4g} (every key)", *compare.tolerance);
    return;
  }
  const std::string scenario = o.run.scenarios.empty() ? "" : o.run.scenarios.front();
  // The baseline gate's choice for this scenario (the suite's policy when it has none of its own).
  const BaselineFor what{platform, o.run.suite, scenario};
  const fs::path file = o.policy_baseline.empty()
                            ? choose_policy_baseline(o.baselines_dir, what).path
                            : choose_baseline(o.policy_baseline, o.baselines_dir, what).path;
  std::error_code ec;
  if (!o.policy_baseline.empty() || fs::exists(file, ec)) {
    compare.policy = load_baseline(file).policy;  // InputError when missing or bad
    compare.tolerance_source = "tolerance policy of " + file.string();
  } else {
    compare.policy = TolerancePolicy::defaults();
    compare.tolerance_source = "default tolerance policy (no " + file.string() + ")";
  }
}

// What every launch of one A/B series shares.
struct AbSeries {
  std::string run_id;
  fs::path dir;
  json fingerprint;                         // collected once, before the first launch
  const char* inherited_ld_path = nullptr;  // LD_LIBRARY_PATH of this process
};

// One launch of one side: the suite in a fresh process and its own run directory, checked for
// the NCCL it really loaded. nullopt with `stopped` saying why when the launch did not finish.
std::optional<ab::AbLaunch> launch_side(const AbRunOptions& o, const ab::AbSide& side, int pair,
                                        const AbSeries& series,
                                        std::vector<ab::AbLaunchRef>& launches,
                                        std::string& stopped, double& took) {
  const std::string name = side.id + "-" + std::to_string(pair);
  RunOptions ro = o.run;
  ro.scenarios = o.run.scenarios.empty() ? std::vector<std::string>{"default"} : o.run.scenarios;
  ro.extra_env = ab_launch_env(side, series.inherited_ld_path);
  ro.extra_env_unset = side.unset;
  ro.bench_wrapper = side.wrap;
  ro.run_dir = series.dir / name;
  ro.run_id = series.run_id + "-" + name;
  ro.fingerprint = series.fingerprint;
  // The fingerprint probed the NCCL this process would load; a side with its own library
  // leaves the version to NCCL's log (run_versions falls back to capture.nccl_version).
  if (!side.nccl.empty() && ro.fingerprint->contains("versions"))
    (*ro.fingerprint)["versions"]["nccl"] = nullptr;
  ro.caller_holds_lock = true;
  // One line per launch: the first launch announces the suite (and its advice), the bench's own
  // progress and table stay in the run directory (bench-console.txt), and the verdict comes last.
  ro.progress = false;
  ro.announce = launches.empty();
  const auto started = std::chrono::steady_clock::now();
  const ScenarioRun sr = run_suite(ro).front();  // one scenario, one launch
  launches.push_back({name, sr.dir.string(), sr.complete});
  took = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (!sr.complete) {
    std::fputs(fmt::format("fabricgate ab: launch {} (side {}) stopped after {:.1f} s -> {}\n",
                           name, side.label, took, sr.dir.string())
                   .c_str(),
               stderr);
  }
  if (sr.bench_refused) {
    throw InputError("fabricgate-bench refused the suite in launch " + name +
                     " (see its message above); " + sr.dir.string() + " keeps the launch details");
  }
  const fs::path run_file = sr.dir / "run.json";
  const json doc = load_json_file(run_file, kRunSchema);
  if (!sr.complete) {
    stopped = "launch " + name + " did not finish: " + string_in(doc, "incomplete_reason");
    return std::nullopt;
  }
  ab::AbLaunch measured{parse_run(doc, run_file.string()), loaded_libraries(doc)};
  measured.run.directory = sr.dir.string();
  ab::verify_loaded_libraries(side, measured.libraries, name, sr.dir.string());
  return measured;
}

// Every launch of a side must load what its first launch loaded (a library swapped mid-series
// would mix two measurements into one side).
void require_same_as_first(const ab::AbSide& side, const ab::AbLaunch& measured, int pair,
                           std::optional<ab::LoadedLibraries>& first) {
  if (first) {
    ab::require_same_libraries(side, *first, side.id + "-1", measured.libraries,
                               side.id + "-" + std::to_string(pair));
  } else {
    first = measured.libraries;
  }
}

// The running decision after a pair: how many keys are decided, how, and how many are open.
std::string pair_line(const ab::AbComparison& c, int pair, double took_a, double took_b,
                      const ab::AbSchedule& s) {
  std::string tally;
  std::size_t open = 0;
  for (const ab::AbVerdictCount& n : c.counts()) {
    if (ab::ab_verdict_open(n.verdict)) {
      open += n.count;
      continue;
    }
    tally += (tally.empty() ? "" : ", ") + std::to_string(n.count) + " " +
             ab::ab_verdict_name(n.verdict);
  }
  std::string state;
  if (pair < s.min_pairs) {
    state = fmt::format("collecting (first look after pair {})", s.min_pairs);
  } else {
    state = (tally.empty() ? std::string("none decided") : tally) +
            (open > 0 ? fmt::format("; {} undecided", open) : std::string()) +
            (c.decided             ? " -> all decided"
             : pair >= s.max_pairs ? " -> maximum reached"
                                   : "");
  }
  return fmt::format("fabricgate ab: pair {} of {}..{} (A {:.1f} s, B {:.1f} s): {}\n", pair,
                     s.min_pairs, s.max_pairs, took_a, took_b, state);
}

Suite checked_ab_suite(const AbRunOptions& o) {
  ab::check_schedule(o.schedule);
  if (o.run.scenarios.size() > 1)
    throw InputError("--scenario", "", "one scenario for both sides of an A/B");
  Suite suite = load_suite(resolve_suite(o.run.suite, o.run.suite_dirs));
  refuse_launcher_env(suite, o.run.allow_suite_launcher_env);
  if (const std::string env = suite_env_summary(suite); !env.empty())
    std::fprintf(stderr, "fabricgate: suite %s sets for the launcher and every rank: %s\n",
                 suite.name.c_str(), env.c_str());
  if (o.run.bench.empty() || !fs::exists(o.run.bench)) {
    throw InfraError("fabricgate-bench not found" +
                     (o.run.bench.empty() ? std::string() : " at " + o.run.bench.string()) +
                     " (build it, or pass --bench PATH)");
  }
  // The tolerance policy's sources, as far as they do not depend on the platform (which the
  // fingerprint, taken under the lock, tells): bad input is refused before the lock file is made.
  if (!o.compare.tolerance) {
    if (o.policy_baseline.empty())
      require_baselines_dir(o.baselines_dir.empty() ? fs::path(kBaselinesDir) : o.baselines_dir);
    else
      (void)load_baseline(o.policy_baseline);  // InputError when missing or bad
  }
  return suite;
}

}  // namespace

AbRunResult run_ab(const AbRunOptions& o) {
  const Suite suite = checked_ab_suite(o);
  // Held across every launch; `fabricgate run`'s paired check already holds it.
  std::optional<RunLock> lock;
  if (!o.run.caller_holds_lock) lock.emplace(o.run.lock_file, o.run.lock_timeout);
  fingerprint::CollectOptions fo;
  fo.platform_override = o.run.platform;
  AbSeries series;
  series.fingerprint = fingerprint::collect(fo);
  series.inherited_ld_path = std::getenv("LD_LIBRARY_PATH");
  const std::string platform = series.fingerprint.at("platform_key").get<std::string>();
  ab::AbOptions compare = o.compare;
  compare.pairs_requested = o.schedule.max_pairs;
  choose_policy(o, platform, compare);

  series.run_id = utc_now_compact() + "-" + suite.name + "-ab" + o.run_id_tag;
  AbRunResult result;
  result.dir = series.dir =
      o.series_dir.empty() ? o.run.results_dir / platform / series.run_id : o.series_dir;
  fs::create_directories(result.dir);
  std::vector<ab::AbPair> pairs;
  std::vector<ab::AbLaunchRef> launches;
  const auto write = [&](const std::string& incomplete_reason) {
    compare.incomplete_reason = incomplete_reason;
    ab::AbComparison c = ab::judge_sequential(o.a, o.b, pairs, compare, o.schedule);
    c.run_id = series.run_id;
    c.suite = suite.name;
    c.platform = platform;
    c.directory = result.dir.string();
    c.launches = launches;
    write_json_atomically(result.dir / "ab.json", ab::ab_to_json(c));
    return c;
  };

  std::optional<ab::LoadedLibraries> first_a;
  std::optional<ab::LoadedLibraries> first_b;
  std::string stopped;
  try {
    for (int p = 1; p <= o.schedule.max_pairs && stopped.empty(); ++p) {
      ab::AbPair pair;
      pair.index = p;
      double took[2] = {0, 0};
      for (const ab::AbSide* side : {&o.a, &o.b}) {
        const bool is_a = side == &o.a;
        std::optional<ab::AbLaunch> measured =
            launch_side(o, *side, p, series, launches, stopped, took[is_a ? 0 : 1]);
        if (!measured) break;
        require_same_as_first(*side, *measured, p, is_a ? first_a : first_b);
        (is_a ? pair.a : pair.b) = std::move(*measured);
      }
      if (!stopped.empty()) break;
      pairs.push_back(std::move(pair));
      // Kept current after every pair: a later crash (or SIGKILL) leaves this comparison behind.
      // (marked running: a SIGKILL now leaves a file that says the series did not finish)
      const ab::AbComparison c = write("running: " + std::to_string(p) + " pair(s) done");
      std::fputs(pair_line(c, p, took[0], took[1], o.schedule).c_str(), stderr);
      if (c.decided) break;
    }
  } catch (const std::exception& e) {
    write(std::string("stopped: ") + e.what());
    throw;
  }
  result.comparison = write(stopped);
  return result;
}

}  // namespace fabricgate::launch
