#pragma once
// Writing records.jsonl. The per-benchmark result itself is the shared BenchmarkResult
// (core/benchmark_result.hpp, docs/DESIGN.md "The record contract"): the bench fills
// it, the harness reads the same type back.
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "core/benchmark_result.hpp"

namespace fabricgate::bench {

// Appends finished records to records.jsonl, flushed line by line (rank 0 only), so a crash
// loses nothing already measured.
class RecordWriter {
 public:
  explicit RecordWriter(std::filesystem::path path) : path_(std::move(path)) {}
  RecordWriter() = default;  // writes nothing (ranks other than 0, or no --records)
  void write_header(const nlohmann::json& header) const;
  // Marks a benchmark as started, so that a run that hangs or dies can name what it was doing.
  void write_start(const std::string& key) const;
  // Writes the record with its medians set from its samples.
  void write(const BenchmarkResult& record) const;
  void write_footer(const nlohmann::json& footer) const;
  bool enabled() const { return !path_.empty(); }

 private:
  std::filesystem::path path_;
};

}  // namespace fabricgate::bench
