#pragma once
// The per-benchmark result the bench writes (docs/DESIGN.md, BenchmarkResult), as plain data.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace fabricgate::bench {

struct Note {
  std::string id;     // PITFALLS id, e.g. "P09"
  std::string level;  // error | warn | note
  std::string text;
};

struct BenchmarkRecord {
  std::string key;
  std::string family;
  std::string backend;
  std::string op;
  nlohmann::json params = nlohmann::json::object();
  std::uint64_t bytes = 0;
  int nranks = 1;
  int gpus_per_process = 1;
  std::string status = "ok";  // ok | skipped | error | wrong
  std::string message;
  int repetitions = 0;
  int iterations = 0;  // operations per sample
  std::vector<double> time_us;
  std::vector<double> algbw_GBps;
  std::vector<double> busbw_GBps;
  double busbw_factor = 0;
  double warmup_us = 0;
  std::int64_t wrong_elements = 0;
  nlohmann::json choice;     // optional: {"algo": {"Ring": 10}, ...}
  nlohmann::json transport;  // optional
  std::vector<Note> notes;
};

double median(std::vector<double> values);
nlohmann::json to_json(const BenchmarkRecord& r);

// Appends finished records to records.jsonl, flushed line by line (rank 0 only), so a crash
// loses nothing already measured.
class RecordWriter {
 public:
  explicit RecordWriter(std::filesystem::path path) : path_(std::move(path)) {}
  RecordWriter() = default;  // writes nothing (ranks other than 0, or no --records)
  void write_header(const nlohmann::json& header) const;
  // Marks a benchmark as started, so that a run that hangs or dies can name what it was doing.
  void write_start(const std::string& key) const;
  void write(const BenchmarkRecord& record) const;
  void write_footer(const nlohmann::json& footer) const;
  bool enabled() const { return !path_.empty(); }

 private:
  std::filesystem::path path_;
};

}  // namespace fabricgate::bench
