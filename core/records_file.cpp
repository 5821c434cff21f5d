#include "core/records_file.hpp"

#include <fstream>
#include <iostream>
#include <iterator>

#include "core/errors.hpp"
#include "core/regular_file.hpp"
#include "core/text_escape.hpp"

namespace fabricgate {

std::string records_line_origin(const std::filesystem::path& file, std::size_t line) {
  return file.string() + " line " + std::to_string(line);
}

namespace {

void add_line(RecordsFile& out, const std::filesystem::path& file, std::size_t line_no,
              const std::string& line) {
  const std::string origin = records_line_origin(file, line_no);
  json rec = parse_json_text(line, origin);
  if (!rec.is_object())
    throw InputError(origin, "", "a JSON object, found " + std::string(rec.type_name()));
  const auto type_it = rec.find("type");
  if (type_it != rec.end() && !type_it->is_string()) throw InputError(origin, "/type", "a string");
  const std::string type = type_it == rec.end() ? "benchmark" : type_it->get<std::string>();
  if (type == "header") {
    out.header = std::move(rec);
  } else if (type == "start") {
    out.in_progress = rec.value("key", "");
  } else if (type == "benchmark") {
    rec.erase("type");
    if (rec.value("key", "") == out.in_progress) out.in_progress.clear();
    out.benchmarks.push_back(std::move(rec));
    out.benchmark_lines.push_back(line_no);
  } else if (type == "footer") {
    out.complete = rec.value("complete", false);
  } else {
    throw InputError(origin, "/type",
                     "\"header\", \"start\", \"benchmark\" or \"footer\", found \"" + type + "\"");
  }
}

}  // namespace

RecordsFile read_records_file(const std::filesystem::path& file) {
  RecordsFile out;
  // A FIFO or device in a run directory is no records file: never wait on it.
  const RegularFileText read = read_regular_file(file);
  if (!read.ok()) return out;
  const std::string& text = read.text;
  std::size_t line_no = 0;
  for (std::size_t begin = 0; begin < text.size();) {
    ++line_no;
    const std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) {
      out.truncated_tail = true;
      out.truncated_line = line_no;
      break;
    }
    if (end > begin) add_line(out, file, line_no, text.substr(begin, end - begin));
    begin = end + 1;
  }
  if (out.truncated_tail) {
    std::cerr << "fabricgate: warning: " << report::printable(file.string()) << " line "
              << out.truncated_line
              << " was cut short (no newline; the run was interrupted while writing it): ignored\n";
  }
  return out;
}

}  // namespace fabricgate
