#pragma once
// What every fixture gets when it registers its benchmarks: the runtime, where records go, and the
// facts about this process that fixtures need (GPU count, rank placement). Passed down, no globals.
#include <functional>
#include <string>

#include <benchmark/benchmark.h>

#include "bench/engine/collective_backend.hpp"
#include "bench/engine/communicator.hpp"
#include "bench/engine/node_layout.hpp"
#include "bench/engine/rank_facts.hpp"
#include "bench/engine/record.hpp"

namespace fabricgate::bench {

// A backend by name, or why it is not available in this build/on this machine.
struct BackendLookup {
  CollectiveBackend* backend = nullptr;
  std::string unavailable_reason;
  int gpus_per_process =
      1;  // the mode asked for, so skipped records are labelled as measured ones (P02)
};

struct BenchEnv {
  Communicator& comm;
  RecordWriter& writer;
  int gpus_per_process = 1;  // P02: > 1 only in the labelled in-process multi-GPU mode
  int visible_gpus = 0;      // GPUs this process can see (0 on a CPU-only machine)
  int device = -1;           // the GPU this rank drives (local rank → device), -1 when none
  bool progress = false;     // print progress lines on stderr (rank 0, a terminal)
  int total_benchmarks = 0;  // registered so far (for progress "k/N")
  std::function<BackendLookup(const std::string& name)> collective_backend;
  const NodeLayout* nodes = nullptr;  // k nodes and their representatives (null: not discovered)
  bool cuda_graph = false;  // --cuda-graph: every NCCL collective in CUDA-graph mode (key /graph)
  // Set when a benchmark hung: its backend was aborted, later benchmarks are not run
  // and the bench exits 3.
  std::string hung_benchmark{};
  // Called on a rank the moment its own operation missed the deadline, before the ranks agree on
  // it: the bench's last resort (MPI_Abort after `grace_seconds`) in case another rank is stuck
  // where it cannot take part in that agreement.
  std::function<void(const std::string& key, double grace_seconds)> on_local_hang{};
  // Hang forensics' side channel: this rank's last completed benchmark and sample (null: none).
  ProgressBeacon* beacon = nullptr;
};

// Google Benchmark 1.8 added SkipWithMessage; 1.7 only has SkipWithError. A skip is not a failure,
// so on 1.7 the message carries a "skipped: " prefix that readers recognise.
void skip_benchmark(benchmark::State& state, const std::string& reason);

}  // namespace fabricgate::bench
