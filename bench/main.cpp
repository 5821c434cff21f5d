// fabricgate-bench: the measuring program, one process per GPU under mpirun/srun.
//   fabricgate-bench --suite suites/quick.json --records out/records.jsonl --gbench-json out/bench.json
// Other arguments go to Google Benchmark (--benchmark_filter, --benchmark_list_tests, …).
// Exit codes: 0 ran (benchmark-level skips/errors are in the records), 2 bad input or a refused
// configuration (P01), 3 infrastructure failure.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <cstring>
#include <exception>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/backends/cuda/gpu_placement.hpp"
#include "bench/backends/mpi/mpi_collectives.hpp"
#include "bench/backends/mpi/mpi_communicator.hpp"
#include "bench/backends/nccl/nccl_backend.hpp"
#include "bench/bench_options.hpp"
#include "bench/capture/profiler_plugin.hpp"
#include "bench/engine/family.hpp"
#include "harness/model/errors.hpp"

namespace fb = fabricgate::bench;

namespace {

// Ranks other than 0 measure but say nothing: one report per job.
class SilentReporter final : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

std::string hostname() {
  char buf[256] = {0};
  gethostname(buf, sizeof buf - 1);
  return buf;
}

// One line per rank: host, local rank, GPU UUID, bus id (P01 evidence), gathered to everyone.
nlohmann::json rank_table(fb::Communicator& comm, const fb::GpuPlacement& gpu) {
  const nlohmann::json mine = {{"rank", comm.rank()}, {"host", hostname()}, {"local_rank", comm.local_rank()},
                               {"gpu_uuid", gpu.uuid}, {"pci_bus_id", gpu.pci_bus_id}, {"gpu_name", gpu.name}};
  nlohmann::json table = nlohmann::json::array();
  for (const auto& s : comm.all_gather(mine.dump())) table.push_back(nlohmann::json::parse(s));
  return table;
}

// P01: a collective needs at least two ranks, each on its own GPU.
std::string refuse_reason(const fb::BenchOptions& opts, const nlohmann::json& ranks, int nranks) {
  if (!opts.has_collectives) return {};
  if (nranks < 2) {
    return "P01: collective benchmarks need at least 2 ranks, found " + std::to_string(nranks) +
           " (ranks started as separate jobs never meet: busbw would be 0). Launch with mpirun -np N or srun.";
  }
  if (!opts.has_gpu_collectives) return {};
  std::set<std::string> seen;
  for (const auto& r : ranks) {
    const std::string uuid = r.value("gpu_uuid", "");
    if (uuid.empty()) continue;
    if (!seen.insert(uuid).second) {
      return "P01: two ranks share GPU " + uuid + " (host " + r.value("host", "") +
             "); one process per GPU is required (check CUDA_VISIBLE_DEVICES and -np)";
    }
  }
  return {};
}

// NCCL's own log is where transport and network choices are read from (P05, P06). Each rank
// writes its own file; a variable the user set is left alone. TUNING lines (one per operation) are
// asked for only when NCCL is too old for the profiler plugin, since they cost time.
void configure_nccl_logging(const std::string& dir, int rank) {
  std::filesystem::create_directories(dir);
  setenv("NCCL_DEBUG", "INFO", 0);
  const std::string version = fb::nccl_runtime_version();
  const bool old_nccl = !version.empty() && version < "2.27";
  setenv("NCCL_DEBUG_SUBSYS", old_nccl ? "INIT,NET,GRAPH,ENV,TUNING" : "INIT,NET,GRAPH,ENV", 0);
  setenv("NCCL_DEBUG_FILE", (dir + "/rank" + std::to_string(rank) + ".log").c_str(), 0);
}

int run(int argc, char** argv) {
  fb::MpiCommunicator comm(&argc, &argv);
  fb::BenchOptions opts = fb::parse_bench_options(argc, argv);  // throws InputError
  const fb::GpuPlacement gpu = fb::place_on_gpu(comm.local_rank());
  const nlohmann::json ranks = rank_table(comm, gpu);

  fb::RecordWriter writer = comm.rank() == 0 && !opts.records.empty() ? fb::RecordWriter(opts.records) : fb::RecordWriter();
  fb::BenchEnv env{.comm = comm, .writer = writer, .collective_backend = {}};
  env.visible_gpus = gpu.visible;
  env.device = gpu.device;
  env.progress = opts.progress && comm.rank() == 0;

  fb::MpiCollectiveBackend mpi_backend(comm);
  std::unique_ptr<fb::CollectiveBackend> nccl_backend;
  std::string nccl_why_not = "no NCCL benchmark in this suite";
  bool profiler_ours = false;
  if (opts.has_gpu_collectives) {
    // Before any NCCL call: NCCL reads its environment once.
    profiler_ours = fabricgate::capture::enable_static_profiler_if_unset();
    if (!opts.nccl_log_dir.empty()) configure_nccl_logging(opts.nccl_log_dir, comm.rank());
    if (gpu.device < 0) {
      nccl_why_not = "no GPU: " + gpu.reason;
    } else {
      nccl_backend = fb::make_nccl_backend(comm, {gpu.device, false}, nccl_why_not);
    }
  }
  env.collective_backend = [&](const std::string& name) -> fb::BackendLookup {
    if (name == "mpi") return {&mpi_backend, {}};
    if (name == "nccl") return {nccl_backend.get(), nccl_backend ? std::string() : nccl_why_not};
    return {};
  };

  const std::string refused = refuse_reason(opts, ranks, comm.size());
  if (!refused.empty()) throw fabricgate::InputError(refused);

  fb::register_suite(opts, env);  // throws InputError naming the suite field

  writer.write_header({{"schema", "fabricgate.records/1"},
                       {"suite", opts.suite_name},
                       {"nranks", comm.size()},
                       {"nodes", comm.node_count()},
                       {"gpus_per_process", 1},
                       {"ranks", ranks},
                       {"mpi_version", fb::mpi_library_version()},
                       {"nccl_version", fb::nccl_runtime_version()},
                       {"capture_path", !opts.has_gpu_collectives          ? "none"
                                        : fabricgate::capture::profiler().active() ? "profiler"
                                                                                   : "log"},
                       {"profiler_set_by", profiler_ours ? "fabricgate" : "user-or-none"},
                       {"benchmarks", env.total_benchmarks}});
  for (const auto& r : ranks) {
    benchmark::AddCustomContext("fabricgate.rank." + std::to_string(r["rank"].get<int>()), r.dump());
  }
  benchmark::AddCustomContext("fabricgate.suite", opts.suite_name);

  std::vector<char*> gb_args = opts.gbench_args;
  std::string out_flag = "--benchmark_out=" + opts.gbench_json;
  std::string fmt_flag = "--benchmark_out_format=json";
  if (comm.rank() == 0 && !opts.gbench_json.empty()) {
    gb_args.push_back(out_flag.data());
    gb_args.push_back(fmt_flag.data());
  }
  int gb_argc = static_cast<int>(gb_args.size());
  gb_args.push_back(nullptr);
  benchmark::Initialize(&gb_argc, gb_args.data());
  if (benchmark::ReportUnrecognizedArguments(gb_argc, gb_args.data())) {
    throw fabricgate::InputError("unrecognised argument (see fabricgate-bench --help)");
  }
  SilentReporter silent;
  if (comm.rank() == 0) {
    benchmark::RunSpecifiedBenchmarks();
  } else {
    benchmark::RunSpecifiedBenchmarks(&silent);
  }
  benchmark::Shutdown();
  writer.write_footer({{"complete", true}});
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const fb::HelpRequested& h) {
    return h.exit_code;
  } catch (const fabricgate::InputError& e) {
    std::fprintf(stderr, "fabricgate-bench: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fabricgate-bench: infrastructure failure: %s\n", e.what());
    return 3;
  }
}
