#pragma once
// One benchmark's measurement, spread over Google Benchmark's repetitions:
//   repetition 0: set up → fill → one operation → check data → warm-up (timed apart, P09)
//                 → ranks agree on how many operations make one sample
//   every repetition: one sample = a batch of back-to-back operations; per-op time = the batch's
//                 time / count, the maximum across ranks (the slowest rank defines a collective)
//   last repetition: tear down, write the record (rank 0).
//   any batch that misses the benchmark's deadline (plan.timeout_seconds) on any rank: the backend
//                 is aborted on every rank, the record says "hung: <key> …", later benchmarks are
//                 skipped and BenchEnv::hung_benchmark tells the bench to exit 3.
// All decisions that could differ between ranks (skip, error, batch size) are made collectively, so
// ranks never disagree on how many operations they issue (which would deadlock a collective).
#include <benchmark/benchmark.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/engine/bench_env.hpp"
#include "bench/engine/measured_op.hpp"
#include "bench/engine/record.hpp"

namespace fabricgate::bench {

struct MeasurePlan {
  int repetitions = 5;
  int warmup_ops = 5;
  int fixed_ops_per_sample = 0;         // > 0: use exactly this many operations per sample
  double target_sample_seconds = 0.02;  // otherwise: about this long per sample ...
  int min_ops_per_sample = 2;           // ... within these bounds
  int max_ops_per_sample = 2000;
  double warmup_slow_factor = 5.0;  // P09: note when warm-up per op is this much slower
  // Seconds the whole benchmark (set-up, check, warm-up, samples) may take before it is
  // declared hung. Backends that can abort (NCCL) stop there; the run then ends with exit 3.
  double timeout_seconds = 600;
};

// Creates the operation on every rank (collective). Returns nullptr and sets `skip_reason` when
// this rank cannot run it (unsupported type, no GPU, out of memory).
using OpFactory = std::function<std::unique_ptr<MeasuredOp>(std::string& skip_reason)>;

// Everything the record needs besides the samples.
struct RecordTemplate {
  BenchmarkResult record;     // key, family, backend, op, params, bytes, nranks, ...
  double bytes_for_rate = 0;  // bytes counted by algbw (0: no rate)
  double busbw_factor = 0;    // 0: not a collective (no busbw)
  // Called on rank 0 after the last sample, to add capture data (algorithm/protocol choice).
  std::function<void(BenchmarkResult&)> finish;
};

// Registers one benchmark with Google Benchmark, pinned to 1 iteration × plan.repetitions, manual
// time.
void register_measurement(BenchEnv& env, RecordTemplate tmpl, MeasurePlan plan, OpFactory factory);

}  // namespace fabricgate::bench
