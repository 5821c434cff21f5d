// How long the gate takes on a very large run: 10^5 result entries against a baseline with the
// same keys (5 repetitions each, 15 pooled baseline samples). Requirement: <= 1 s on the 2-core
// CI machine for the comparison. Also measures the full CLI path (load both files + compare).
#include <benchmark/benchmark.h>

#include <cstdlib>

#include "core/json_file.hpp"
#include "harness/baseline/baseline_builder.hpp"
#include "harness/gate/compare.hpp"
#include "tests/unit/gate/gate_fixtures.hpp"

namespace fabricgate::gate {
namespace {

// FABRICGATE_BENCH_ENTRIES overrides the size (profiling with smaller inputs).
const int kEntries = std::getenv("FABRICGATE_BENCH_ENTRIES")
                         ? std::atoi(std::getenv("FABRICGATE_BENCH_ENTRIES"))
                         : 100000;

nlohmann::json big_run(const std::string& id, unsigned seed) {
  std::vector<nlohmann::json> results;
  results.reserve(kEntries);
  static const char* const kOps[] = {"all_reduce", "all_gather", "reduce_scatter", "broadcast",
                                     "reduce"};
  for (int i = 0; i < kEntries; ++i) {
    testing::ResultSpec s;
    s.op = std::string(kOps[i % 5]) + "_v" + std::to_string(i / (5 * 25));
    s.bytes = std::uint64_t{8} << (i / 5 % 25);  // 8 B .. 128 MiB
    s.time_us = testing::noisy(5.0 + static_cast<double>(s.bytes) / 2000.0, 0.02, 5,
                               seed * 1000003u + static_cast<unsigned>(i));
    results.push_back(testing::make_result(s));
  }
  testing::RunSpec rs;
  rs.run_id = id;
  return testing::make_run(rs, results);
}

struct Inputs {
  std::filesystem::path dir = testing::fresh_temp_dir("bench-gate");
  RunRecord run;
  Baseline baseline;
  std::filesystem::path run_dir;
  std::filesystem::path baseline_file;

  ~Inputs() { std::filesystem::remove_all(dir); }

  Inputs() {
    std::vector<RunRecord> runs;
    for (unsigned s = 1; s <= 3; ++s)
      runs.push_back(testing::to_run(big_run("b" + std::to_string(s), s)));
    baseline::BaselineBuildOptions o;
    o.now = "2026-11-29T00:00:00Z";
    baseline = baseline::create_baseline(runs, o).baseline;
    const nlohmann::json now = big_run("now", 99);
    run = testing::to_run(now);
    run_dir = testing::write_run_dir(dir, now);
    baseline_file = dir / "baseline.json";
    save_baseline(baseline_file, baseline);
  }
};

Inputs& inputs() {
  static Inputs in;
  return in;
}

void BM_Compare100kEntries(benchmark::State& state) {
  Inputs& in = inputs();
  for (auto _ : state) {
    verdict::Comparison c = compare_run(in.run, &in.baseline, {});
    benchmark::DoNotOptimize(c);
  }
  state.SetItemsProcessed(state.iterations() * kEntries);
}
BENCHMARK(BM_Compare100kEntries)->Unit(benchmark::kMillisecond)->Iterations(5);

// The file loads (strict validation of every field) are what the CLI adds on top of compare.
void BM_LoadRun100kEntries(benchmark::State& state) {
  Inputs& in = inputs();
  for (auto _ : state) {
    RunRecord run = load_run(in.run_dir);
    benchmark::DoNotOptimize(run);
  }
  state.SetItemsProcessed(state.iterations() * kEntries);
}
BENCHMARK(BM_LoadRun100kEntries)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_LoadBaseline100kEntries(benchmark::State& state) {
  Inputs& in = inputs();
  for (auto _ : state) {
    Baseline baseline = load_baseline(in.baseline_file);
    benchmark::DoNotOptimize(baseline);
  }
  state.SetItemsProcessed(state.iterations() * kEntries);
}
BENCHMARK(BM_LoadBaseline100kEntries)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace fabricgate::gate

BENCHMARK_MAIN();
