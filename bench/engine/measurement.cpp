#include "bench/engine/measurement.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bench/engine/rank_facts.hpp"

namespace fabricgate::bench {

namespace {

struct MeasurementState {
  RecordTemplate tmpl;
  MeasurePlan plan;
  OpFactory factory;
  int calls = 0;
  int index = 0;  // position among registered benchmarks (progress)
  bool finished = false;
  std::unique_ptr<MeasuredOp> op;
  int ops_per_sample = 0;
  BenchmarkResult rec;
  std::chrono::steady_clock::time_point started;
  // This rank's own view of each sample, per operation (docs/STRAGGLERS.md): its wall time, the
  // time it was off the CPU and the CPU time it got (-1: no CPU clock). Rank 0 turns them into
  // paces (rank_paces) once, after the last sample.
  std::vector<double> walls_us;
  std::vector<double> off_cpu_us;
  std::vector<double> cpu_us;
};

// First non-empty message among the ranks, prefixed with the rank that said it.
std::string first_reason(Communicator& comm, const std::string& mine) {
  const auto all = comm.all_gather(mine);
  for (std::size_t r = 0; r < all.size(); ++r) {
    if (!all[r].empty())
      return comm.size() > 1 ? "rank " + std::to_string(r) + ": " + all[r] : all[r];
  }
  return {};
}

// One short line per benchmark. (fabricgate run shows its own single progress line from the
// records instead: mpirun's output forwarding turns carriage returns into separate lines.)
void progress_line(const BenchEnv& env, const MeasurementState& s, const char* what) {
  if (!env.progress || env.comm.rank() != 0) return;
  std::fprintf(stderr, "fabricgate-bench: [%d/%d] %s %s\n", s.index, env.total_benchmarks,
               s.rec.key.c_str(), what);
}

// Ends a benchmark that will not produce samples (skip, error, wrong data), on all ranks alike.
void finish_without_samples(BenchEnv& env, MeasurementState& s, benchmark::State& state,
                            ResultStatus status, const std::string& message) {
  s.rec.status = status;
  s.rec.message = message;
  s.finished = true;
  s.op.reset();
  if (status == ResultStatus::skipped) {
    skip_benchmark(state, message);
  } else {
    state.SkipWithError(message.c_str());
  }
  env.writer.write(s.rec);
  progress_line(env, s, status_name(status));
}

// After a batch: did any rank fail? A failure ends this benchmark; a hang also aborts
// the backend on every rank and ends the run: later benchmarks are not run, the bench exits 3.
// Collective: every rank calls it at the same point. Returns true when the benchmark ended.
// Right after a batch, before the next collective: a rank that hung arms the bench's last resort,
// since the collective that follows needs every other rank to come out of its batch too.
double after_batch(BenchEnv& env, MeasurementState& s, double seconds) {
  if (s.op->hung() && env.on_local_hang) env.on_local_hang(s.rec.key, s.plan.timeout_seconds);
  return seconds;
}

bool batch_failed(BenchEnv& env, MeasurementState& s, benchmark::State& state) {
  const bool hung_here = s.op->hung();
  const std::string failure = first_reason(env.comm, s.op->failure());
  if (failure.empty()) return false;
  if (env.comm.all_agree(!hung_here)) {
    finish_without_samples(env, s, state, ResultStatus::error, failure);
    return true;
  }
  s.op->abort();
  env.hung_benchmark = s.rec.key;
  finish_without_samples(env, s, state, ResultStatus::error,
                         "hung: " + s.rec.key + " did not complete within its " +
                             fmt::format("{:g}", s.plan.timeout_seconds) + " s timeout (" +
                             failure + "); " + s.rec.backend +
                             " aborted, later benchmarks not run");
  return true;
}

// Repetition 0's preamble. Returns false when the benchmark ended here.
bool set_up(BenchEnv& env, MeasurementState& s, benchmark::State& state) {
  Communicator& comm = env.comm;
  s.rec = s.tmpl.record;
  s.rec.repetitions = s.plan.repetitions;
  s.rec.busbw_factor = s.tmpl.busbw_factor;
  s.started = std::chrono::steady_clock::now();
  if (!env.hung_benchmark.empty()) {  // every rank knows: no collective needed to agree
    finish_without_samples(env, s, state, ResultStatus::skipped,
                           "not run: " + env.hung_benchmark + " hung earlier in this run");
    return false;
  }
  env.writer.write_start(s.rec.key);
  std::string reason;
  std::string error;
  try {
    s.op = s.factory(reason);
    if (!s.op && reason.empty()) reason = "not supported here";
  } catch (const std::exception& e) {
    error = e.what();
    s.op.reset();
  }
  const std::string any_error = first_reason(comm, error);
  if (!any_error.empty()) {
    finish_without_samples(env, s, state, ResultStatus::error, any_error);
    return false;
  }
  if (!comm.all_agree(s.op != nullptr)) {
    finish_without_samples(env, s, state, ResultStatus::skipped,
                           first_reason(comm, s.op ? "" : reason));
    return false;
  }
  s.op->set_deadline(s.started + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                     std::chrono::duration<double>(s.plan.timeout_seconds)));
  // Correctness: fresh data, exactly one operation, then check, outside any timed loop.
  s.op->prepare_data();
  const double first = after_batch(env, s, s.op->run_batch(1));
  const std::int64_t wrong =
      comm.sum(s.op->failure().empty() && !s.op->hung() ? s.op->count_wrong() : 0);
  if (batch_failed(env, s, state)) return false;
  if (wrong > 0) {
    s.rec.wrong_elements = wrong;
    finish_without_samples(
        env, s, state, ResultStatus::wrong,
        "wrong results: " + std::to_string(wrong) + " elements differ from the expected pattern");
    return false;
  }
  // Warm-up, timed apart from the samples (P09).
  const int more = std::max(0, s.plan.warmup_ops - 1);
  const double warm = more > 0 ? after_batch(env, s, s.op->run_batch(more)) : 0.0;
  if (batch_failed(env, s, state)) return false;
  s.rec.warmup_us = comm.max((first + warm) / (1 + more)) * 1e6;
  const double per_op = comm.max(more > 0 ? warm / more : first);
  int ops = s.plan.fixed_ops_per_sample;
  if (ops <= 0) {
    const double want =
        per_op > 0 ? std::ceil(s.plan.target_sample_seconds / per_op) : s.plan.max_ops_per_sample;
    ops = static_cast<int>(std::clamp(want, static_cast<double>(s.plan.min_ops_per_sample),
                                      static_cast<double>(s.plan.max_ops_per_sample)));
  }
  // Every rank must issue the same number of operations: take the largest proposal.
  s.ops_per_sample = static_cast<int>(comm.max(static_cast<double>(ops)));
  s.rec.iterations = s.ops_per_sample;
  return true;
}

void add_notes(MeasurementState& s) {
  const double med = median(s.rec.samples.time_us);
  if (med > 0 && s.rec.warmup_us > s.plan.warmup_slow_factor * med) {
    s.rec.notes.push_back(
        {"P09", "note",
         fmt::format("warm-up {:.1f} us/op is {:.1f}x the timed median {:.2f} us (first-use "
                     "setup, P09)",
                     s.rec.warmup_us, s.rec.warmup_us / med, med)});
  }
}

// Rank 0 receives every rank's paces and summarises them into the record; one collective call after
// the timed loop (never inside it). Single-rank jobs have nothing to compare.
void gather_rank_timings(BenchEnv& env, MeasurementState& s) {
  if (env.comm.size() < 2) return;
  const nlohmann::json mine = {{"host", host_name()},     {"cpu_set", cpu_set()},
                               {"gpu", env.device},       {"walls", s.walls_us},
                               {"off_cpu", s.off_cpu_us}, {"cpu", s.cpu_us}};
  const std::vector<std::string> all = env.comm.gather(mine.dump(), 0);
  if (env.comm.rank() != 0) return;
  std::vector<std::vector<double>> walls;
  std::vector<std::vector<double>> off_cpu;
  std::vector<std::vector<double>> cpu;
  std::vector<nlohmann::json> facts;
  for (const std::string& text : all) {
    facts.push_back(nlohmann::json::parse(text));
    walls.push_back(facts.back().at("walls").get<std::vector<double>>());
    off_cpu.push_back(facts.back().at("off_cpu").get<std::vector<double>>());
    cpu.push_back(facts.back().at("cpu").get<std::vector<double>>());
  }
  s.rec.ranks = rank_timings(rank_paces(walls, off_cpu, cpu), off_cpu);
  for (std::size_t r = 0; r < facts.size(); ++r) {
    s.rec.ranks[r].host = facts[r].at("host").get<std::string>();
    s.rec.ranks[r].cpu_set = facts[r].at("cpu_set").get<std::string>();
    s.rec.ranks[r].gpu = facts[r].at("gpu").get<int>();
  }
}

void run_repetition(BenchEnv& env, MeasurementState& s, benchmark::State& state) {
  const int rep = s.calls++;
  if (s.finished) {  // an earlier repetition ended it; keep all ranks in step and say why again
    skip_benchmark(state, s.rec.message.empty() ? "ended earlier" : s.rec.message);
    return;
  }
  if (rep == 0 && !set_up(env, s, state)) return;

  double seconds = 0;
  double mine = 0;
  double off_cpu = 0;
  double on_cpu = -1;  // no CPU clock
  for (auto _ : state) {
    // Outside run_batch's timed region: wall time minus this thread's CPU time around the batch is
    // the time the rank was off the CPU (waiting for a core, throttled by a quota, asleep).
    const auto wall_before = std::chrono::steady_clock::now();
    const std::optional<double> cpu_before = thread_cpu_seconds();
    mine = after_batch(env, s, s.op->run_batch(s.ops_per_sample));
    const std::optional<double> cpu_after = thread_cpu_seconds();
    const auto wall_after = std::chrono::steady_clock::now();
    if (cpu_before && cpu_after) {
      const double wall = std::chrono::duration<double>(wall_after - wall_before).count();
      on_cpu = std::max(0.0, *cpu_after - *cpu_before);
      off_cpu = std::max(0.0, wall - on_cpu);
    }
    seconds = env.comm.max(mine);
    state.SetIterationTime(seconds / s.ops_per_sample);
  }
  if (batch_failed(env, s, state)) return;
  s.walls_us.push_back(mine / s.ops_per_sample * 1e6);
  s.off_cpu_us.push_back(off_cpu / s.ops_per_sample * 1e6);
  s.cpu_us.push_back(on_cpu >= 0 ? on_cpu / s.ops_per_sample * 1e6 : -1.0);
  if (env.beacon) env.beacon->completed(s.rec.key, rep);
  const double per_op = seconds / s.ops_per_sample;
  s.rec.samples.time_us.push_back(per_op * 1e6);
  state.counters["time_us"] = per_op * 1e6;
  state.counters["bytes"] = static_cast<double>(s.rec.bytes);
  state.counters["nranks"] = s.rec.nranks;
  state.counters["gpus_per_process"] = s.rec.gpus_per_process;
  state.counters["ops_per_sample"] = s.ops_per_sample;
  if (s.tmpl.bytes_for_rate > 0 && per_op > 0) {
    const double algbw = s.tmpl.bytes_for_rate / per_op / 1e9;  // decimal GB/s (P08)
    s.rec.samples.algbw_GBps.push_back(algbw);
    state.counters["algbw_GBps"] = algbw;
    if (s.tmpl.busbw_factor > 0) {
      s.rec.samples.busbw_GBps.push_back(algbw * s.tmpl.busbw_factor);
      state.counters["busbw_GBps"] = algbw * s.tmpl.busbw_factor;
    }
  }
  if (rep + 1 == s.plan.repetitions) {
    s.op.reset();  // release buffers before the next benchmark allocates its own
    gather_rank_timings(env, s);
    if (s.tmpl.finish) s.tmpl.finish(s.rec);
    add_notes(s);
    s.finished = true;
    env.writer.write(s.rec);
    progress_line(env, s, "done");
  }
}

}  // namespace

void skip_benchmark(benchmark::State& state, const std::string& reason) {
#if defined(FABRICGATE_GBENCH_HAS_SKIP_MESSAGE)
  state.SkipWithMessage(reason.c_str());
#else
  state.SkipWithError(("skipped: " + reason).c_str());
#endif
}

void register_measurement(BenchEnv& env, RecordTemplate tmpl, MeasurePlan plan, OpFactory factory) {
  auto s = std::make_shared<MeasurementState>();
  s->tmpl = std::move(tmpl);
  s->plan = plan;
  s->factory = std::move(factory);
  s->index = ++env.total_benchmarks;
  s->rec = s->tmpl.record;
  const std::string name = s->tmpl.record.key;
  benchmark::RegisterBenchmark(
      name.c_str(), [&env, s](benchmark::State& state) { run_repetition(env, *s, state); })
      ->Iterations(1)
      ->Repetitions(plan.repetitions)
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace fabricgate::bench
