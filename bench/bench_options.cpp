#include "bench/bench_options.hpp"

#include <iostream>

#include <CLI/CLI.hpp>

#include "bench/engine/family.hpp"
#include "core/errors.hpp"
#include "core/nearest_name.hpp"

namespace fabricgate::bench {
namespace {

// The plan at `pointer` ("/defaults" or an entry) over `base`, with --hang-timeout (when given)
// overriding its "timeout_s": the one place the hang timeout is read and overridden.
MeasurePlan plan_with_flags(const JsonReader& reader, const std::string& pointer,
                            const MeasurePlan& base, double hang_timeout_s) {
  MeasurePlan plan = read_plan(reader, pointer, base);
  if (hang_timeout_s > 0) plan.timeout_seconds = hang_timeout_s;
  return plan;
}

}  // namespace

BenchOptions parse_bench_options(int argc, char** argv) {
  BenchOptions o;
  CLI::App app{
      "fabricgate-bench: measures a suite, one process per GPU under mpirun/srun.\n"
      "Unrecognised --benchmark_* arguments go to Google Benchmark."};
  app.add_option("--suite", o.suite_file, "Suite file (suites/*.json)")->required();
  app.add_option("--records", o.records,
                 "Append one JSON line per finished benchmark here (rank 0)");
  app.add_option("--gbench-json", o.gbench_json, "Write Google Benchmark JSON here (rank 0)");
  app.add_option("--nccl-log-dir", o.nccl_log_dir,
                 "Write NCCL's INFO log here, one file per rank (capture)");
  app.add_flag("--progress", o.progress, "Print progress lines on stderr");
  app.add_option("--console-table", o.console_table,
                 "Where Google Benchmark's console table goes: a file, or - for stdout (default: "
                 "bench-console.txt "
                 "beside --gbench-json when that is given, else stdout)");
  int emulate_flag = 0;
  app.add_option(
         "--emulate-nodes", emulate_flag,
         "Treat the ranks as K nodes (rank r on node r/(n/K), NCCL_HOSTID per node); overrides the "
         "suite's \"emulate_nodes\"")
      ->check(CLI::Range(1, 65536));
  int gpp_flag = 0;
  app.add_option("--gpus-per-process", gpp_flag,
                 "NCCL: GPUs each process drives (in-process multi-GPU mode, labelled gpp:G, never "
                 "compared "
                 "with one GPU per process, P02); overrides the suite's \"gpus_per_process\"")
      ->check(CLI::Range(1, 16));
  app.add_flag("--cuda-graph", o.cuda_graph,
               "NCCL: capture each sample's operations into a CUDA graph and time its launch (keys "
               "end in /graph)");
  app.add_flag("--nccl-nonblocking", o.nccl_nonblocking,
               "NCCL: create non-blocking communicators (initialisation abortable too; a slower "
               "launch path: "
               "keys end in /nonblocking); overrides the suite's \"nccl_nonblocking\"");
  app.add_option("--hang-timeout", o.hang_timeout_s,
                 "Seconds one benchmark (and NCCL initialisation) may take; NCCL work still "
                 "running then is "
                 "aborted and the bench exits 3. Overrides the suite's \"timeout_s\" (default 600)")
      ->check(CLI::Range(0.001, 86400.0));
  app.allow_extras();
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    std::cout << app.help();
    throw HelpRequested{0};
  } catch (const CLI::ParseError& e) {
    throw InputError(std::string("fabricgate-bench: ") + e.what());
  }
  o.passthrough.push_back(argv[0]);
  for (const auto& extra : app.remaining()) o.passthrough.push_back(extra);
  for (auto& s : o.passthrough) o.gbench_args.push_back(s.data());

  o.suite = load_suite(o.suite_file);
  o.suite_name = o.suite.name;
  const JsonReader reader(o.suite.doc, o.suite_file);
  if (reader.find("/gpus_per_process")) {
    const long long g = reader.integer_at("/gpus_per_process");
    if (g < 1 || g > 16)
      reader.fail(
          "/gpus_per_process",
          "GPUs per process in [1, 16] (P02: > 1 is the labelled in-process multi-GPU mode)");
    o.gpus_per_process = static_cast<int>(g);
  }
  if (gpp_flag > 0) o.gpus_per_process = gpp_flag;
  if (!o.nccl_nonblocking && reader.find("/nccl_nonblocking"))
    o.nccl_nonblocking = reader.bool_at("/nccl_nonblocking");
  o.defaults = plan_with_flags(reader, "/defaults", MeasurePlan{}, o.hang_timeout_s);
  if (reader.find("/emulate_nodes")) {
    const long long k = reader.integer_at("/emulate_nodes");
    if (k < 1 || k > 65536) reader.fail("/emulate_nodes", "a node count in [1, 65536]");
    o.emulate_nodes = static_cast<int>(k);
  }
  if (emulate_flag > 0) o.emulate_nodes = emulate_flag;
  for (const auto& entry : o.suite.doc["benchmarks"]) {
    const std::string family = entry.value("family", "");
    if (family == "coll" || family == "nodepairs") {
      o.has_collectives = true;
      // NCCL node pairs need the NCCL communicator like collectives.
      if (entry_uses_nccl(entry)) {
        o.has_gpu_collectives = true;
      } else {
        o.has_host_collectives = true;
      }
    }
  }
  return o;
}

void register_suite(const BenchOptions& opts, BenchEnv& env) {
  const JsonReader reader(opts.suite.doc, opts.suite_file);
  const auto& entries = opts.suite.doc["benchmarks"];
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::string pointer = "/benchmarks/" + std::to_string(i);
    const std::string family = reader.string_at(pointer + "/family");
    const FamilyRegistrar* registrar = FamilyRegistry::instance().find(family);
    if (!registrar) {
      const std::vector<std::string> known = FamilyRegistry::instance().names();
      std::string listed;
      for (const auto& n : known) listed += (listed.empty() ? "" : ", ") + n;
      reader.fail(pointer + "/family",
                  "one of " + listed + ", found \"" + family + "\"" + did_you_mean(family, known));
    }
    const SuiteEntry entry{reader, pointer,
                           plan_with_flags(reader, pointer, opts.defaults, opts.hang_timeout_s)};
    (*registrar)(entry, env);
  }
}

}  // namespace fabricgate::bench
