#include "harness/import/source_text.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/errors.hpp"

namespace fabricgate::import {

namespace {
constexpr std::uintmax_t kMaxSourceBytes = 256ULL
                                           << 20;  // far above any nccl-tests/nvbandwidth output
}

std::string read_source_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw InputError(path.string(), "", "no such file (expected a tool's output file)");
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) throw InputError(path.string(), "", "cannot read the file size: " + ec.message());
  if (size == 0)
    throw InputError(path.string(), "", "the file is empty (expected a tool's output)");
  if (size > kMaxSourceBytes)
    throw InputError(path.string(), "", "larger than 256 MiB: not a tool's output file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string(), "", "cannot open the file");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

std::vector<std::string_view> split_words(std::string_view line) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

std::string printable(std::string_view text, std::size_t max) {
  std::string out;
  for (const char c : text) {
    if (out.size() >= max) {
      out += "...";
      break;
    }
    const auto u = static_cast<unsigned char>(c);
    out += (u < 0x20 || u >= 0x7f) ? '?' : c;
  }
  return out;
}

std::optional<double> parse_double(std::string_view word) {
  if (word.empty() || word.size() > 64) return std::nullopt;
  const std::string s(word);
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (errno != 0 || end != s.c_str() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<long long> parse_integer(std::string_view word) {
  if (word.empty() || word.size() > 20) return std::nullopt;
  const std::string s(word);
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (errno != 0 || end != s.c_str() + s.size()) return std::nullopt;
  return v;
}

void fail_at_line(const std::string& file, int line, const std::string& expectation) {
  throw InputError(file, "", "line " + std::to_string(line) + ": " + expectation);
}

}  // namespace fabricgate::import
