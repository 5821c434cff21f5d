#pragma once
// One benchmark's result: the object the bench appends to records.jsonl and run.json carries in
// "benchmarks" (docs/DESIGN.md, "The record contract"). The bench fills it and writes it with
// to_json; the harness reads it back with parse_benchmark_result (below,
// benchmark_result_reader.cpp). Both programs reach this header, so the JSON object has one
// description, not one per program.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/plausibility_limits.hpp"
#include "core/rank_timing.hpp"

namespace fabricgate {

enum class ResultStatus { ok, skipped, error, wrong };
const char* status_name(ResultStatus status);

struct Note {
  std::string id;     // PITFALLS id, e.g. "P09"
  std::string level;  // "error" | "warn" | "note"
  std::string text;
};

struct Samples {
  std::vector<double> time_us;
  std::vector<double> algbw_GBps;
  std::vector<double> busbw_GBps;  // empty for non-collectives
};

// What NCCL chose for this key: name -> number of operations that used it. The profiler plugin
// (or rank 0's TUNING log lines) fills it; the gate compares the names used (route_checks).
struct Choice {
  std::optional<long long> events;         // collective events seen; absent in hand-written records
  std::map<std::string, long long> algo;   // "Ring" -> n
  std::map<std::string, long long> proto;  // "LL" -> n
  std::map<std::string, long long> channels;  // "24" -> n
  std::map<std::string, long long> warps;
  std::map<std::string, long long> funcs;  // "AllReduce" -> n
};

struct TransportSeen {
  std::string network;
  std::vector<std::string> transports;
};

struct BenchmarkResult {
  std::string key;
  std::string family;
  std::string backend;
  std::string op;
  nlohmann::json params = nlohmann::json::object();
  std::uint64_t bytes = 0;
  int nranks = 1;
  int gpus_per_process = 1;
  ResultStatus status = ResultStatus::ok;
  std::string message;
  int repetitions = 0;
  int iterations = 0;  // operations per sample
  Samples samples;
  // Medians of the samples: what the gate judges. The bench sets them from the samples
  // (summarise_samples) just before writing.
  double time_us = 0;
  double algbw_GBps = 0;
  std::optional<double> busbw_GBps;
  double busbw_factor = 0;
  double warmup_us = 0;
  long long wrong_elements = 0;
  std::optional<Choice> choice;
  std::optional<TransportSeen> transport;
  std::vector<Note> notes;
  // Per-rank timings (collective and pair benchmarks with nranks > 1; empty otherwise).
  std::vector<RankTiming> ranks;

  // params.provider for libfabric results (P05), "" otherwise.
  std::string provider() const;
  bool has_error_note() const;
};

double median(std::vector<double> values);

// Sets time_us / algbw_GBps / busbw_GBps to the medians of the samples (busbw only when there
// are busbw samples).
void summarise_samples(BenchmarkResult& result);

nlohmann::json to_json(const Choice& choice);
// The records.jsonl / run.json object ("type": "benchmark" included). Numbers (samples, medians,
// warm-up) are written for ok results only: the bench measured nothing else.
nlohmann::json to_json(const BenchmarkResult& result);

// Validates one BenchmarkResult object found at `pointer` (e.g. "/benchmarks/3") in `origin`.
BenchmarkResult parse_benchmark_result(const nlohmann::json& doc, const std::string& origin,
                                       const std::string& pointer,
                                       const PlausibilityLimits& limits = {});

}  // namespace fabricgate
