#pragma once
// fabricgate-bench's own command line (CLI11), the suite it measures, and the registration of the
// suite's benchmarks through the fixture families.
#include <string>
#include <vector>

#include "bench/engine/bench_env.hpp"
#include "harness/model/suite.hpp"

namespace fabricgate::bench {

struct BenchOptions {
  std::string suite_file;
  std::string suite_name;
  std::string records;      // records.jsonl (rank 0 appends one line per finished benchmark)
  std::string gbench_json;  // Google Benchmark JSON (rank 0)
  std::string nccl_log_dir;  // NCCL's INFO log per rank goes here (rank<N>.log), parsed after the run
  bool progress = false;
  Suite suite;
  bool has_collectives = false;
  bool has_gpu_collectives = false;
  std::vector<std::string> passthrough;  // for Google Benchmark
  std::vector<char*> gbench_args;        // argv[0] + passthrough, pointing into `passthrough`
};

// Throws InputError for bad flags or a bad suite. --help prints and throws HelpRequested.
BenchOptions parse_bench_options(int argc, char** argv);
struct HelpRequested {
  int exit_code = 0;
};

// Registers every entry of the suite with Google Benchmark (through FamilyRegistry).
void register_suite(const BenchOptions& opts, BenchEnv& env);

}  // namespace fabricgate::bench
