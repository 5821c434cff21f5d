// fabricgate-bench: the measuring program, one process per GPU under mpirun/srun.
//   fabricgate-bench --suite suites/quick.json --records out/records.jsonl --gbench-json
//   out/bench.json
// Other arguments go to Google Benchmark (--benchmark_filter, --benchmark_list_tests, …).
// Exit codes: 0 ran (benchmark-level skips/errors are in the records), 2 bad input or a refused
// configuration (P01), 3 infrastructure failure (also: a benchmark hung and was aborted).
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/backends/cuda/gpu_placement.hpp"
#include "bench/backends/mpi/mpi_collectives.hpp"
#include "bench/backends/mpi/mpi_communicator.hpp"
#include "bench/backends/nccl/nccl_backend.hpp"
#include "bench/backends/nccl/nccl_library.hpp"
#include "bench/bench_options.hpp"
#include "bench/capture/profiler_plugin.hpp"
#include "bench/console_table.hpp"
#include "bench/engine/family.hpp"
#include "bench/engine/rank_gpu_check.hpp"
#include "bench/hang_watchdog.hpp"
#include "bench/node_setup.hpp"
#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "core/records_header.hpp"

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
nlohmann::json rank_table(fb::Communicator& comm, const fb::GpuPlacement& gpu,
                          const fb::NodeLayout& nodes) {
  const auto node =
      static_cast<std::size_t>(nodes.node_of_rank[static_cast<std::size_t>(comm.rank())]);
  const nlohmann::json mine = {
      {"rank", comm.rank()},
      {"host", hostname()},
      {"local_rank", comm.local_rank()},
      {"node", nodes.names[node]},
      {"gpu_uuid", gpu.uuid},
      {"pci_bus_id", gpu.pci_bus_id},
      {"gpu_name", gpu.name},
      {"visible_gpus", gpu.visible},
      {"nccl_library", fb::nccl_library_path()}};  // per rank: fabricgate ab checks every one
  nlohmann::json table = nlohmann::json::array();
  for (const auto& s : comm.all_gather(mine.dump()))
    table.push_back(fabricgate::parse_json_text(s, "rank table entry"));
  return table;
}

// The GPUs this process drives: `gpus_per_process` consecutive devices from its placement. Too few
// visible GPUs for the mode is a configuration error (exit 2), not a skip.
std::vector<int> process_devices(const fb::GpuPlacement& gpu, fb::Communicator& comm,
                                 int gpus_per_process) {
  const int first = comm.local_rank() * gpus_per_process;
  if (first + gpus_per_process > gpu.visible) {
    throw fabricgate::InputError(
        "gpus_per_process " + std::to_string(gpus_per_process) + ": local rank " +
        std::to_string(comm.local_rank()) + " needs GPUs " + std::to_string(first) + ".." +
        std::to_string(first + gpus_per_process - 1) + " but " + std::to_string(gpu.visible) +
        " are visible (launch processes × gpus_per_process <= GPUs per host, e.g. "
        "\"ranks\": 1)");
  }
  std::vector<int> devices;
  for (int i = 0; i < gpus_per_process; ++i) devices.push_back(first + i);
  return devices;
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

// The NCCL backend when the suite has GPU collectives, or why there is none (a skip reason).
struct NcclSetup {
  std::unique_ptr<fb::CollectiveBackend> backend;
  std::string why_not = "no NCCL benchmark in this suite";
  bool profiler_ours = false;  // fabricgate's profiler plugin was enabled (the user set none)
};

NcclSetup set_up_nccl(const fb::BenchOptions& opts, fb::Communicator& comm,
                      const fb::GpuPlacement& gpu, int gpus_per_process) {
  NcclSetup out;
  if (!opts.has_gpu_collectives) return out;
  // Before any NCCL call: NCCL reads its environment once.
  out.profiler_ours = fabricgate::capture::enable_static_profiler_if_unset();
  if (!opts.nccl_log_dir.empty()) configure_nccl_logging(opts.nccl_log_dir, comm.rank());
  if (gpu.device < 0) {
    out.why_not = "no GPU: " + gpu.reason;
    return out;
  }
  fb::NcclBackendResult made =
      fb::make_nccl_backend(comm, {process_devices(gpu, comm, gpus_per_process),
                                   opts.defaults.timeout_seconds, opts.nccl_nonblocking});
  if (made.hung) throw fabricgate::InfraError("hung: " + made.why_not);  // a hang: exit 3
  out.backend = std::move(made.backend);
  out.why_not = made.why_not;
  return out;
}

// records.jsonl's first line: what the harness needs to know about the job before any benchmark.
fabricgate::RecordsHeader records_header(const fb::BenchOptions& opts, fb::Communicator& comm,
                                         const nlohmann::json& ranks, const NcclSetup& nccl,
                                         const fb::BenchEnv& env, int gpus_per_process) {
  fabricgate::RecordsHeader h;
  h.suite = opts.suite_name;
  h.nranks = comm.size();
  h.gpus_per_process = gpus_per_process;
  h.nccl_nonblocking = opts.nccl_nonblocking;
  h.ranks = ranks;
  h.mpi_version = fb::mpi_library_version();
  h.nccl_version = fb::nccl_runtime_version();
  h.nccl_library = fb::nccl_library_path();
  h.capture_path = !opts.has_gpu_collectives                  ? "none"
                   : fabricgate::capture::profiler().active() ? "profiler"
                                                              : "log";
  h.profiler_set_by = nccl.profiler_ours ? "fabricgate" : "user-or-none";
  h.benchmarks = env.total_benchmarks;
  return h;
}

// Rank 0's console table, opened before any benchmark; every rank learns when it cannot be, so
// that all of them stop with the same input error instead of waiting on rank 0.
std::unique_ptr<fb::ConsoleTable> open_console_table(const fb::BenchOptions& opts,
                                                     fb::Communicator& comm) {
  std::unique_ptr<fb::ConsoleTable> table;
  std::string error;
  if (comm.rank() == 0) {
    try {
      table = std::make_unique<fb::ConsoleTable>(opts.console_table, opts.gbench_json);
    } catch (const fabricgate::InputError& e) {
      error = e.what();
    }
  }
  for (const std::string& e : comm.all_gather(error)) {
    if (!e.empty()) throw fabricgate::InputError(e);
  }
  return table;
}

// Google Benchmark over the registered benchmarks. Rank 0 reports (its table to `table`, JSON to
// --gbench-json); the other ranks measure in step and say nothing.
void run_benchmarks(const fb::BenchOptions& opts, fb::Communicator& comm,
                    const nlohmann::json& ranks, fb::ConsoleTable* table) {
  for (const auto& r : ranks) {
    benchmark::AddCustomContext("fabricgate.rank." + std::to_string(r["rank"].get<int>()),
                                r.dump());
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
  // Every fabricgate benchmark is a family of its own, and Google Benchmark (1.7) reserves its
  // instance list one family at a time when the filter is exactly "." (its default): the list is
  // then copied once per benchmark, quadratic in the suite (16k benchmarks: minutes). ".*"
  // selects the same benchmarks and grows the list geometrically.
  std::string filter = benchmark::GetBenchmarkFilter();
  if (filter.empty() || filter == "." || filter == "all") filter = ".*";
  SilentReporter silent;
  if (comm.rank() == 0) {
    benchmark::RunSpecifiedBenchmarks(table ? table->reporter() : nullptr, filter);
  } else {
    benchmark::RunSpecifiedBenchmarks(&silent, filter);
  }
  benchmark::Shutdown();
}

int run(int argc, char** argv) {
  // Declared before the communicator so that it outlives it: the heartbeat goes on through
  // MPI_Finalize and the NCCL teardown, which can hang as well.
  std::optional<fb::ProgressBeacon> beacon;
  fb::MpiCommunicator comm(&argc, &argv);
  fb::BenchOptions opts = fb::parse_bench_options(argc, argv);  // throws InputError
  // The host's real local rank; in the in-process multi-GPU mode (P02) its first GPU.
  const int gpus_per_process = opts.has_gpu_collectives ? opts.gpus_per_process : 1;
  const fb::GpuPlacement gpu = fb::place_on_gpu(comm.local_rank() * gpus_per_process);
  // Before NCCL initialises: emulated nodes set NCCL_HOSTID (docs/MULTINODE.md).
  const fb::NodeLayout nodes = fb::set_up_nodes(comm, opts.emulate_nodes);
  const nlohmann::json ranks = rank_table(comm, gpu, nodes);
  const nlohmann::json node_facts = fb::gather_node_facts(comm, nodes);
  // P01 before NCCL initialises: two ranks on one GPU would wait there forever.
  const std::string refused =
      fb::p01_refusal({opts.has_collectives, opts.has_gpu_collectives, opts.has_host_collectives,
                       opts.gpus_per_process, comm.size()},
                      ranks);
  if (!refused.empty()) throw fabricgate::InputError(refused);

  fb::RecordWriter writer = comm.rank() == 0 && !opts.records.empty()
                                ? fb::RecordWriter(opts.records)
                                : fb::RecordWriter();
  fb::BenchEnv env{.comm = comm, .writer = writer, .collective_backend = {}};
  env.visible_gpus = gpu.visible;
  env.device = gpu.device;
  env.progress = opts.progress && comm.rank() == 0;
  env.nodes = &nodes;
  env.cuda_graph = opts.cuda_graph;
  // Next to records.jsonl, on every rank: what the harness reads when the job hangs.
  beacon.emplace(opts.records.empty() ? std::filesystem::path()
                                      : std::filesystem::path(opts.records).parent_path() / "ranks",
                 comm.rank(), 500);
  env.beacon = &*beacon;
  fb::HangWatchdog watchdog;  // the last resort when ranks cannot agree on a hang
  env.on_local_hang = [&watchdog](const std::string& key, double grace) {
    watchdog.arm(key, std::max(grace, 5.0));
  };

  fb::MpiCollectiveBackend mpi_backend(comm, gpu.device, gpu.reason);
  const NcclSetup nccl = set_up_nccl(opts, comm, gpu, gpus_per_process);
  env.collective_backend = [&](const std::string& name) -> fb::BackendLookup {
    if (name == "mpi") return {&mpi_backend, {}};
    if (name == "nccl")
      return {nccl.backend.get(), nccl.backend ? std::string() : nccl.why_not, gpus_per_process};
    return {};
  };

  fb::register_suite(opts, env);  // throws InputError naming the suite field
  const std::unique_ptr<fb::ConsoleTable> table = open_console_table(opts, comm);

  fabricgate::RecordsHeader header = records_header(opts, comm, ranks, nccl, env, gpus_per_process);
  fb::set_node_layout(header, nodes, gpus_per_process, gpu.visible);
  header.node_facts = node_facts;
  writer.write_header(to_json(header));
  run_benchmarks(opts, comm, ranks, table.get());
  watchdog.disarm();
  beacon->finished();
  if (!env.hung_benchmark.empty()) {  // the record says which; the exit code says hang
    writer.write_footer({{"complete", false}, {"hung", env.hung_benchmark}});
    if (comm.rank() == 0)
      std::fprintf(stderr, "fabricgate-bench: hung: %s (aborted; later benchmarks not run)\n",
                   env.hung_benchmark.c_str());
    return 3;
  }
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
