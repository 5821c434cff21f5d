#pragma once
// The one reader of records.jsonl, the file the bench appends while it runs (docs/DESIGN.md,
// "The record contract"). fabricgate run assembles run.json from it; load_run reads it when a
// crashed run left no run.json. One rule for both:
//   - the writer ends every line with a newline (append_json_line), so a last line without one
//     was cut by a crash: it is "truncated", reported and ignored;
//   - a complete line that is not a JSON object of a known type is an InputError naming the file
//     and the line.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "core/json_file.hpp"

namespace fabricgate {

struct RecordsFile {
  json header;                               // null when the bench never got that far
  std::vector<json> benchmarks;              // the benchmark objects, without their "type"
  std::vector<std::size_t> benchmark_lines;  // 1-based line of each benchmark
  bool complete = false;                     // a footer with complete=true was written
  bool truncated_tail = false;               // the last line had no newline: ignored
  std::size_t truncated_line = 0;            // its 1-based number when truncated_tail
  std::string in_progress;                   // a benchmark that started and never finished
};

// "<file> line <n>": how errors and warnings name a line.
std::string records_line_origin(const std::filesystem::path& file, std::size_t line);

// Reads records.jsonl; a missing file reads as empty (nothing measured). A line without "type"
// is a benchmark (run.json's benchmark objects are valid lines). A truncated last line prints
// one warning on stderr.
RecordsFile read_records_file(const std::filesystem::path& file);

}  // namespace fabricgate
