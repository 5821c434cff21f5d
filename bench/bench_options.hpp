#pragma once
// fabricgate-bench's own command line (CLI11), the suite it measures, and the registration of the
// suite's benchmarks through the fixture families.
#include <string>
#include <vector>

#include "bench/engine/bench_env.hpp"
#include "bench/engine/measurement.hpp"
#include "core/suite.hpp"

namespace fabricgate::bench {

struct BenchOptions {
  std::string suite_file;
  std::string suite_name;
  std::string records;      // records.jsonl (rank 0 appends one line per finished benchmark)
  std::string gbench_json;  // Google Benchmark JSON (rank 0)
  std::string
      nccl_log_dir;  // NCCL's INFO log per rank goes here (rank<N>.log), parsed after the run
  bool progress = false;
  std::string
      console_table;  // Google Benchmark's table: a file, "-" for stdout, "" for the default
  int emulate_nodes =
      0;  // > 0: split the ranks into this many emulated nodes (flag, else the suite's field)
  // Measurement modes and hang handling:
  int gpus_per_process =
      1;                    // NCCL: GPUs one process drives (suite "gpus_per_process" or flag; P02)
  bool cuda_graph = false;  // --cuda-graph: NCCL collectives captured into CUDA graphs
  bool nccl_nonblocking =
      false;  // --nccl-nonblocking / suite "nccl_nonblocking": ncclConfig_t.blocking = 0
  double hang_timeout_s =
      0;  // --hang-timeout: overrides every "timeout_s" of the suite (0: not given)
  // The suite's "defaults" plan, read once with --hang-timeout applied: every entry's plan starts
  // from it, and its timeout_seconds is also the NCCL initialisation deadline.
  MeasurePlan defaults;
  Suite suite;
  bool has_collectives = false;
  bool has_gpu_collectives = false;
  bool has_host_collectives =
      false;  // collectives on a host backend (mpi): their nranks = processes
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
