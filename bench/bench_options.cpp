#include "bench/bench_options.hpp"

#include <iostream>

#include <CLI/CLI.hpp>

#include "bench/engine/family.hpp"
#include "harness/model/errors.hpp"

namespace fabricgate::bench {

BenchOptions parse_bench_options(int argc, char** argv) {
  BenchOptions o;
  CLI::App app{"fabricgate-bench: measures a suite, one process per GPU under mpirun/srun.\n"
               "Unrecognised --benchmark_* arguments go to Google Benchmark."};
  app.add_option("--suite", o.suite_file, "Suite file (suites/*.json)")->required();
  app.add_option("--records", o.records, "Append one JSON line per finished benchmark here (rank 0)");
  app.add_option("--gbench-json", o.gbench_json, "Write Google Benchmark JSON here (rank 0)");
  app.add_option("--nccl-log-dir", o.nccl_log_dir, "Write NCCL's INFO log here, one file per rank (capture)");
  app.add_flag("--progress", o.progress, "Print progress lines on stderr");
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
  for (const auto& entry : o.suite.doc["benchmarks"]) {
    if (entry.value("family", "") == "coll") {
      o.has_collectives = true;
      if (entry.value("backend", "") == "nccl") o.has_gpu_collectives = true;
    }
  }
  return o;
}

void register_suite(const BenchOptions& opts, BenchEnv& env) {
  const JsonReader reader(opts.suite.doc, opts.suite_file);
  const MeasurePlan defaults = read_plan(reader, "/defaults", MeasurePlan{});
  const auto& entries = opts.suite.doc["benchmarks"];
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::string pointer = "/benchmarks/" + std::to_string(i);
    const std::string family = reader.string_at(pointer + "/family");
    const FamilyRegistrar* registrar = FamilyRegistry::instance().find(family);
    if (!registrar) {
      std::string known;
      for (const auto& n : FamilyRegistry::instance().names()) known += (known.empty() ? "" : ", ") + n;
      reader.fail(pointer + "/family", "one of " + known + ", found \"" + family + "\"");
    }
    const SuiteEntry entry{reader, pointer, read_plan(reader, pointer, defaults)};
    (*registrar)(entry, env);
  }
}

}  // namespace fabricgate::bench
