#include "harness/launch/run_orchestrator.hpp"

#include <unistd.h>

extern char** environ;

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>

#include "core/errors.hpp"
#include "core/records_header.hpp"
#include "core/suite.hpp"
#include "core/text_escape.hpp"
#include "harness/analysis/capture_json.hpp"
#include "harness/analysis/controls.hpp"
#include "harness/fingerprint/fingerprint.hpp"
#include "harness/fingerprint/machine_identity.hpp"
#include "harness/launch/cpu_pressure.hpp"
#include "harness/launch/gpu_capacity.hpp"
#include "harness/launch/hang_forensics.hpp"
#include "harness/launch/launch_counters_record.hpp"
#include "harness/launch/launch_plan.hpp"
#include "harness/launch/process.hpp"
#include "harness/launch/run_assembly.hpp"
#include "harness/launch/run_lock.hpp"
#include "harness/launch/suite_env_policy.hpp"
#include "harness/model/output_paths.hpp"
#include "harness/model/secret_redaction.hpp"

namespace fabricgate::launch {

namespace fs = std::filesystem;

namespace {

// A name after one of the fixed prefixes below: letters of either case, digits, '_'. Open MPI's
// parameters are lower case after their prefix (OMPI_MCA_btl), and remote ranks only see what is
// forwarded with -x; suite files keep the stricter is_safe_env_name.
bool is_forwardable_name(const std::string& name) {
  if (name.empty() || name.size() > 128) return false;
  for (const char c : name) {
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
      return false;
  }
  return true;
}

// Variables every rank must see as the user set them (NCCL_NVLS_ENABLE=0 above all).
std::vector<std::string> names_to_forward() {
  static constexpr const char* kPrefixes[] = {"NCCL_",     "FI_",    "UCX_",    "CUDA_",
                                              "OMPI_MCA_", "TORCH_", "NVSHMEM_"};
  std::vector<std::string> names;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry(*e);
    const std::string name = entry.substr(0, entry.find('='));
    for (const char* p : kPrefixes) {
      if (name.rfind(p, 0) == 0 && is_forwardable_name(name)) names.push_back(name);
    }
  }
  return names;
}

// launch.json: what was started, with secret values redacted (also in "-x NAME=VALUE").
json launch_record(const LaunchPlan& plan) {
  std::vector<std::string> argv = plan.argv;
  for (std::size_t i = 1; i < argv.size(); ++i) {
    const std::size_t eq = argv[i].find('=');
    if (argv[i - 1] != "-x" || eq == std::string::npos) continue;
    argv[i] =
        argv[i].substr(0, eq + 1) + recordable_value(argv[i].substr(0, eq), argv[i].substr(eq + 1));
  }
  return {
      {"schema", "fabricgate.launch/1"}, {"argv", argv}, {"env", recordable_environment(plan.env)}};
}

int ranks_for(const Suite& suite, const RunOptions& o, const json& fingerprint) {
  int ranks = o.ranks > 0 ? o.ranks : suite.ranks;
  if (ranks == 0) {  // one per GPU
    ranks = fingerprint.value("/identity/gpu_count"_json_pointer, 0);
    if (ranks < suite.min_ranks) ranks = suite.min_ranks;
  }
  if (ranks < suite.min_ranks) {
    throw InputError("--ranks", "",
                     "at least " + std::to_string(suite.min_ranks) + " ranks for suite " +
                         suite.name + " (P01: a collective needs ranks that meet), found " +
                         std::to_string(ranks));
  }
  require_rank_count(ranks, "--ranks", "");
  return ranks;
}

std::vector<std::string> read_logs(const fs::path& dir) {
  std::vector<std::string> texts;
  if (!fs::is_directory(dir)) return texts;
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream buf;
    buf << in.rdbuf();
    texts.push_back(buf.str());
  }
  return texts;
}

// P13/P14/P19: did a control scenario really take the path it forces? For algo:/proto: the
// per-benchmark choices say; for the transport controls, NCCL's log does.
json check_control_paths(const capture::ControlScenario& control,
                         const capture::CaptureSummary& summary, const RecordsFile& records,
                         bool nccl_ran);

// A control can make NCCL refuse some operations (NCCL_ALGO=Tree has no all_gather): those did
// not take the forced path at all, so the verdict on the control says how many failed and why.
json check_control(const capture::ControlScenario& control, const capture::CaptureSummary& summary,
                   const RecordsFile& records, bool nccl_ran) {
  json check = check_control_paths(control, summary, records, nccl_ran);
  if (check.is_null()) return check;
  std::size_t failed = 0;
  std::string first;
  for (const auto& b : records.benchmarks) {
    if (b.value("backend", "") != "nccl" || b.value("status", "") == "ok") continue;
    if (failed++ == 0) first = b.value("key", "");
  }
  if (failed > 0) {
    std::string why = summary.warnings.empty() ? std::string()
                                               : "; NCCL said: " + summary.warnings.begin()->first;
    check["message"] = check["message"].get<std::string>() + "; " + std::to_string(failed) +
                       " NCCL benchmark(s) failed under this control (first: " + first + ")" + why;
    check["failed_benchmarks"] = failed;
  }
  return check;
}

json check_control_paths(const capture::ControlScenario& control,
                         const capture::CaptureSummary& summary, const RecordsFile& records,
                         bool nccl_ran) {
  if (control.name == "default") return nullptr;
  if (!nccl_ran)
    return {{"ok", false}, {"message", "no NCCL benchmark ran: the control could not be verified"}};
  const bool algo = control.name.rfind("algo:", 0) == 0;
  const bool proto = control.name.rfind("proto:", 0) == 0;
  if (algo || proto) {
    const std::string want = control.name.substr(control.name.find(':') + 1);
    const char* field = algo ? "algo" : "proto";
    std::string seen;
    bool any = false;
    for (const auto& b : records.benchmarks) {
      if (!b.contains("choice") || !b["choice"].contains(field)) continue;
      for (const auto& [name, count] : b["choice"][field].items()) {
        any = true;
        if (name != want && seen.find(name) == std::string::npos)
          seen += (seen.empty() ? "" : ", ") + name;
      }
    }
    if (!any)
      return {{"ok", false},
              {"message", std::string("no ") + field + " captured: cannot verify " + control.name}};
    if (!seen.empty())
      return {{"ok", false}, {"message", control.name + " forced but NCCL also used " + seen}};
    return {{"ok", true}, {"message", "every captured operation used " + want}};
  }
  const auto check = capture::verify_control(control, summary);
  return {{"ok", check.ok}, {"message", check.message}};
}

std::string scenario_slug(const std::string& scenario) {
  std::string s = scenario;
  for (auto& c : s) {
    if (c == ':') c = '-';
  }
  return s;
}

}  // namespace

fs::path default_bench_path() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    for (const fs::path& candidate :
         {self.parent_path() / "fabricgate-bench",
          self.parent_path().parent_path().parent_path() / "bench" / "fabricgate-bench"}) {
      if (fs::exists(candidate)) return candidate;
    }
  }
  const std::string in_path = find_in_path("fabricgate-bench");
  return in_path.empty() ? fs::path() : fs::path(in_path);
}

Suite validate_run_options(const RunOptions& o) {
  fingerprint::require_usable_host_id_env();
  fingerprint::require_usable_host_id_state_file();
  Suite suite = load_suite(resolve_suite(o.suite, o.suite_dirs));  // the whole suite, validated
  refuse_launcher_env(suite, o.allow_suite_launcher_env);
  if (o.ranks != 0) require_rank_count(o.ranks, "--ranks", "");
  if (o.run_dir.empty()) require_writable_directory(o.results_dir, "--results-dir");
  for (const auto& s : o.scenarios.empty() ? suite.scenarios : o.scenarios)
    capture::control_scenario(s);
  return suite;
}

namespace {

// What every scenario of one `fabricgate run` shares, decided once before the first launch.
struct SuiteLaunch {
  const RunOptions& o;
  const Suite& suite;
  json fingerprint;
  std::string platform;
  int ranks = 0;
  LaunchContext context;
};

void require_bench(const RunOptions& o) {
  if (o.bench.empty() || !fs::exists(o.bench)) {
    throw InfraError("fabricgate-bench not found" +
                     (o.bench.empty() ? std::string() : " at " + o.bench.string()) +
                     " (build it, or pass --bench PATH)");
  }
}

// One host's launch: the fingerprint knows its GPUs (P01 before NCCL can hang on a shared GPU).
void refuse_gpu_shortage(const SuiteLaunch& shared) {
  const RunOptions& o = shared.o;
  if (!o.hostfile.empty() || o.launcher == "srun" || shared.context.inside_slurm_job ||
      shared.context.inside_mpi_job)
    return;
  LocalLaunch local{shared.ranks, shared.suite.doc.value("gpus_per_process", 1), ""};
  if (const auto it = shared.suite.env.find("CUDA_VISIBLE_DEVICES"); it != shared.suite.env.end()) {
    local.cuda_visible_devices = it->second;
  } else if (const char* v = std::getenv("CUDA_VISIBLE_DEVICES")) {
    local.cuda_visible_devices = v;
  }
  if (const std::string refusal = gpu_shortage(shared.suite, local, shared.fingerprint);
      !refusal.empty()) {
    throw InputError(shared.suite.file.string(), "/ranks", refusal);
  }
}

// Creates the scenario's run directory; returns its run id (with a -N suffix when taken).
std::string make_run_directory(const SuiteLaunch& shared, const capture::ControlScenario& control,
                               ScenarioRun& sr) {
  const RunOptions& o = shared.o;
  std::string run_id = o.run_id.empty() ? utc_now_compact() + "-" + shared.suite.name + "-" +
                                              scenario_slug(control.name)
                                        : o.run_id;
  if (!o.run_dir.empty()) {
    sr.dir = o.run_dir;
    fs::create_directories(sr.dir);
    return run_id;
  }
  // Run ids have one-second resolution and a quick suite can finish within the second: a new
  // launch never writes into an earlier launch's directory (its records would mix), it takes
  // the next free suffix. create_directory is atomic, so two runners cannot both get one.
  const std::string stem = run_id;
  for (int n = 2; !fs::create_directories(o.results_dir / shared.platform / run_id); ++n) {
    if (n > 1000)
      throw InfraError("no free run directory for " + stem + " under " +
                       (o.results_dir / shared.platform).string());
    run_id = stem + "-" + std::to_string(n);
  }
  sr.dir = o.results_dir / shared.platform / run_id;
  return run_id;
}

// The bench's command line and environment for one scenario (the scenario's own variables are
// also returned in `scenario_env`, for the run record).
LaunchRequest bench_request(const SuiteLaunch& shared, const capture::ControlScenario& control,
                            const fs::path& dir, std::map<std::string, std::string>& scenario_env) {
  const RunOptions& o = shared.o;
  LaunchRequest req;
  req.launcher = o.launcher;
  req.ranks = shared.ranks;
  req.hostfile = o.hostfile;
  req.env = shared.suite.env;
  for (const auto& [k, v] : o.extra_env) req.env[k] = v;
  for (const std::string& name : o.extra_env_unset) req.env.erase(name);
  req.env_unset = o.extra_env_unset;
  for (const auto& [k, v] : control.env) {
    req.env[k] = v;
    scenario_env[k] = v;
  }
  req.forward_env = names_to_forward();
  req.bench_command = {o.bench.string(),
                       "--suite",
                       shared.suite.file.string(),
                       "--records",
                       (dir / "records.jsonl").string(),
                       "--gbench-json",
                       (dir / "bench.json").string(),
                       "--nccl-log-dir",
                       (dir / "nccl").string()};
  // The console shows each benchmark's aggregates; every repetition is kept in records.jsonl.
  req.bench_command.push_back("--benchmark_display_aggregates_only=true");
  // mpirun hands the ranks a pipe either way: say plainly whether colours are wanted.
  if (::isatty(STDOUT_FILENO) != 1 || std::getenv("NO_COLOR") != nullptr) {
    req.bench_command.push_back("--benchmark_color=false");
  }
  if (o.progress) req.bench_command.push_back("--progress");
  req.bench_command.insert(req.bench_command.end(), o.extra_bench_args.begin(),
                           o.extra_bench_args.end());
  req.bench_command.insert(req.bench_command.begin(), o.bench_wrapper.begin(),
                           o.bench_wrapper.end());
  return req;
}

// Exit 0 without one record: the launcher never started the bench (a wrapper, a dry run, a
// broken mpirun). That is the launcher's failure, not a defect of the run it did not make.
void require_bench_started(const ProcessResult& result, const RecordsFile& records,
                           const LaunchPlan& plan, const fs::path& dir) {
  if (!result.ok() || !records.header.is_null() || !records.benchmarks.empty()) return;
  throw InfraError(
      "launcher " + plan.launcher + " (" +
      (plan.argv.empty() ? std::string("?") : plan.argv.front()) +
      ") exited 0 but started no fabricgate-bench: " + (dir / "records.jsonl").string() +
      " has no records; see " + (dir / "launch.json").string());
}

// The run record's "capture" object: what NCCL's logs say, and whether the control held.
json capture_record(const capture::ControlScenario& control, const fs::path& dir,
                    const RecordsFile& records) {
  const capture::CaptureSummary summary = capture::parse_nccl_logs(read_logs(dir / "nccl"));
  const std::string capture_path = records.header.is_object()
                                       ? read_records_header(records.header).capture_path
                                       : RecordsHeader{}.capture_path;
  json cap = capture::capture_to_json(summary, capture_path);
  bool nccl_ran = false;
  for (const auto& b : records.benchmarks)
    nccl_ran = nccl_ran || (b.value("backend", "") == "nccl" && b.value("status", "") == "ok");
  if (json check = check_control(control, summary, records, nccl_ran); !check.is_null())
    cap["control"] = check;
  return cap;
}

// Launches the bench for one scenario and writes its run.json. `interrupted`: the user asked us
// to stop.
ScenarioRun run_scenario(const SuiteLaunch& shared, const capture::ControlScenario& control,
                         bool& interrupted) {
  const RunOptions& o = shared.o;
  ScenarioRun sr;
  sr.scenario = control.name;
  const std::string run_id = make_run_directory(shared, control, sr);
  std::map<std::string, std::string> scenario_env;
  const LaunchPlan plan =
      plan_launch(bench_request(shared, control, sr.dir, scenario_env), shared.context);
  write_json_atomically(sr.dir / "launch.json", launch_record(plan));

  if (o.announce) {
    std::fprintf(stderr, "fabricgate: %s suite %s, scenario %s, %d ranks via %s -> %s\n",
                 shared.platform.c_str(), shared.suite.name.c_str(), control.name.c_str(),
                 shared.ranks, plan.launcher.c_str(), sr.dir.c_str());
  }
  RunFacts facts;
  facts.run_id = run_id;
  facts.suite = shared.suite.name;
  facts.scenario = control.name;
  facts.scenario_env = scenario_env;
  facts.extra_env = o.extra_env;
  facts.extra_env_unset = o.extra_env_unset;
  facts.platform = shared.platform;
  facts.launcher = plan.launcher;
  facts.metadata = ci_metadata();
  facts.started_at = utc_now_iso8601();
  const InvocationSession& session = invocation_session(shared.fingerprint);
  facts.host_id = session.host_id;
  facts.session_id = session.id;
  facts.session_started_at = session.started_at;
  ProcessSpec spec;
  spec.argv = plan.argv;
  spec.env_set = plan.env;
  spec.env_unset = plan.env_unset;
  spec.timeout = o.timeout;
  // What the launch leaves behind is ended and said (process.hpp): a wrap= helper's background
  // child held mpirun's output open for the whole --timeout, and a detached one loaded every later
  // launch of the A/B.
  spec.work_process = o.bench.filename().string();
  std::optional<ProgressSnapshot> at_timeout;
  const CpuPressureWindow pressure;
  std::optional<counters::LaunchCounterWindow> counter_window;
  if (counters_enabled())
    counter_window.emplace(
        counter_options(shared.fingerprint, plan.launcher, o.bench, plan.env, shared.suite.env));
  const ProcessResult result =
      run_process(spec, [&] { at_timeout = read_progress_snapshot(sr.dir, shared.ranks); });
  if (!result.leftovers.empty()) {
    std::string killed;
    for (const std::string& l : result.leftovers) killed += (killed.empty() ? "" : ", ") + l;
    std::fprintf(
        stderr, "%s\n",
        report::console_text(
            "fabricgate: warning: the launch left " + std::to_string(result.leftovers.size()) +
            " process(es) running after its ranks ended" +
            (result.held_open ? ", holding the launcher's output open" : std::string()) +
            " (a wrap= helper's background process?): killed: " + killed)
            .c_str());
  }
  facts.host_cpu_pressure = pressure.share();
  facts.runner_counters = record_counters(counter_window, o.announce);
  facts.finished_at = utc_now_iso8601();
  if (!result.ok()) {
    facts.incomplete_reason = "fabricgate-bench " + result.describe();
    if (result.timed_out)
      facts.incomplete_reason += " after " + std::to_string(o.timeout.count()) + " s (hang?)";
    // A hang (ours or the bench's own, exit 3): which ranks did not reach the collective.
    if (result.timed_out || result.exit_code == 3) {
      const HangReport hang = write_hang_report(
          sr.dir, at_timeout ? *at_timeout : read_progress_snapshot(sr.dir, shared.ranks),
          facts.incomplete_reason);
      // The lines quote the ranks' progress files, which the bench (or anything that can write
      // the run directory) wrote: shown inert.
      for (const std::string& line : hang.console)
        std::fprintf(stderr, "%s\n", report::console_text("fabricgate: " + line).c_str());
      std::fprintf(stderr, "fabricgate: hang forensics in %s\n", (sr.dir / "hang.json").c_str());
    }
  }
  sr.bench_refused = !result.timed_out && result.signal == 0 && result.exit_code == 2;

  const RecordsFile records = read_records(sr.dir / "records.jsonl");
  require_bench_started(result, records, plan, sr.dir);
  const json run =
      assemble_run(facts, records, shared.fingerprint, capture_record(control, sr.dir, records));
  write_json_atomically(sr.dir / "run.json", run);
  sr.complete = run["complete"].get<bool>();
  interrupted = result.interrupted;
  return sr;
}

}  // namespace

std::vector<ScenarioRun> run_suite(const RunOptions& o) {
  // Everything the user gave is checked before the lock, the fingerprint and the launch.
  const Suite suite = validate_run_options(o);
  if (o.announce) {
    for (const std::string& advice : suite_advice(suite))
      std::fprintf(stderr, "fabricgate: warning: %s\n", advice.c_str());
    if (const std::string env = suite_env_summary(suite); !env.empty())
      std::fprintf(stderr, "fabricgate: suite %s sets for the launcher and every rank: %s\n",
                   suite.name.c_str(), env.c_str());
  }
  const std::vector<std::string> scenarios = o.scenarios.empty() ? suite.scenarios : o.scenarios;
  std::vector<capture::ControlScenario> controls;
  for (const auto& s : scenarios)
    controls.push_back(capture::control_scenario(s));  // InputError on bad names
  require_bench(o);
  if (!o.run_dir.empty() && controls.size() != 1) {
    throw InputError(
        "--scenario", "",
        "one scenario when the run directory is given, found " + std::to_string(controls.size()));
  }
  std::optional<RunLock> lock;
  if (!o.caller_holds_lock) lock.emplace(o.lock_file, o.lock_timeout);
  fingerprint::CollectOptions fo;
  fo.platform_override = o.platform;
  SuiteLaunch shared{o,  suite, o.fingerprint ? *o.fingerprint : fingerprint::collect(fo),
                     "", 0,     detect_launch_context()};
  shared.platform = shared.fingerprint.at("platform_key").get<std::string>();
  shared.ranks = ranks_for(suite, o, shared.fingerprint);
  refuse_gpu_shortage(shared);

  std::vector<ScenarioRun> runs;
  for (const auto& control : controls) {
    bool interrupted = false;
    runs.push_back(run_scenario(shared, control, interrupted));
    if (interrupted) break;  // the user asked us to stop: keep what is finished
  }
  return runs;
}

}  // namespace fabricgate::launch
