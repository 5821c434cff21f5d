#include "core/benchmark_key.hpp"

#include "core/text_escape.hpp"

namespace fabricgate {

namespace {

bool key_character(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  switch (c) {
    case '_':
    case '-':
    case '.':
    case ':':
    case '+':
    case '=':
    case ',':
    case ';':
    case '@': return true;
    default: return false;
  }
}

}  // namespace

std::string benchmark_key_problem(std::string_view key) {
  const std::string shown = "\"" + report::printable(key, 200) + "\"";
  if (key.empty() || key.size() > kMaxKeyBytes) {
    return "a key of 1 to " + std::to_string(kMaxKeyBytes) + " bytes, found " +
           std::to_string(key.size()) + " bytes";
  }
  if (key.front() == ':') return "a key that does not start with ':', found " + shown;
  std::size_t start = 0;
  while (start <= key.size()) {
    const std::size_t end = std::min(key.find('/', start), key.size());
    const std::string_view segment = key.substr(start, end - start);
    if (segment.empty()) return "a key without empty '/'-separated parts, found " + shown;
    if (segment == "." || segment == "..")
      return "a key without \"..\" or \".\" parts, found " + shown;
    for (const char c : segment) {
      if (!key_character(c)) {
        return "a key of letters, digits and _-.:+=,;@ separated by '/', found " + shown;
      }
    }
    start = end + 1;
  }
  return {};
}

}  // namespace fabricgate
