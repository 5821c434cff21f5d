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

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (const char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

bool is_count_tag(std::string_view name) {
  for (const std::string_view n :
       {"bytes", "ranks", "gpp", "root", "src", "dst", "gpu", "window", "qps", "round"}) {
    if (n == name) return true;
  }
  return false;
}

bool is_tag_name(std::string_view name) {
  if (name.empty() || name.size() > 32 || !(name[0] >= 'a' && name[0] <= 'z')) return false;
  for (const char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

// "" when the tagged segment `name:value` is spelled canonically.
std::string tag_problem(std::string_view name, std::string_view value, const std::string& shown) {
  const std::string tag = std::string(name) + ":" + std::string(value);
  if (!is_tag_name(name)) {
    return "a key whose tags are named in lower case ([a-z][a-z0-9_]*), found \"" +
           report::printable(tag, 80) + "\" in " + shown;
  }
  const bool digits = all_digits(value);
  // A copy from one GPU to all others (or from all to one) names its peers "all" (copy_plan.hpp).
  const bool all_peers = (name == "src" || name == "dst") && value == "all";
  if (is_count_tag(name) && !all_peers && (!digits || value.size() > 19)) {
    return "a key whose " + std::string(name) +
           " is a count in decimal digits (no sign, unit or point" +
           std::string(name == "src" || name == "dst" ? "; or \"all\"" : "") + "), found \"" +
           report::printable(tag, 80) + "\" in " + shown;
  }
  if (digits && value.size() > 1 && value[0] == '0') {
    return "a key whose numbers have no leading zero (\"" + std::string(name) + ":" +
           std::string(value.substr(value.find_first_not_of('0') == std::string_view::npos
                                        ? value.size() - 1
                                        : value.find_first_not_of('0'))) +
           "\"), found \"" + report::printable(tag, 80) + "\" in " + shown;
  }
  return {};
}

// The value of tag `name` in a key that follows the grammar; empty when absent.
std::string_view tag_value(std::string_view key, std::string_view name) {
  std::size_t start = 0;
  while (start < key.size()) {
    const std::size_t end = std::min(key.find('/', start), key.size());
    const std::string_view segment = key.substr(start, end - start);
    const std::size_t colon = segment.find(':');
    if (colon != std::string_view::npos && segment.substr(0, colon) == name)
      return segment.substr(colon + 1);
    start = end + 1;
  }
  return {};
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
    if (const std::size_t colon = segment.find(':'); colon != std::string_view::npos) {
      const std::string_view name = segment.substr(0, colon);
      if (std::string problem = tag_problem(name, segment.substr(colon + 1), shown);
          !problem.empty())
        return problem;
      if (key.substr(0, start).find("/" + std::string(name) + ":") != std::string_view::npos ||
          (start > 0 && key.starts_with(std::string(name) + ":")))
        return "a key with one \"" + std::string(name) + ":\" tag, found " + shown;
    }
    start = end + 1;
  }
  return {};
}

std::string key_record_mismatch(std::string_view key, const KeyedFields& f) {
  const std::string shown = "\"" + report::printable(key, 200) + "\"";
  const std::string_view prefix = key.substr(0, key.find('/'));
  const std::string_view expected_prefix = f.family == "nodepairs" ? "pairs" : f.family;
  if (prefix != expected_prefix) {
    return "a key that starts with the record's family \"" +
           report::printable(expected_prefix, 40) + "\", found " + shown;
  }
  const auto check = [&](std::string_view tag, long long value,
                         std::string_view field) -> std::string {
    const std::string_view v = tag_value(key, tag);
    if (v.empty() || v == std::to_string(value)) return {};
    return "a key whose " + std::string(tag) + ":" + std::string(v) + " matches the record's " +
           std::string(field) + " (" + std::to_string(value) + "), found " + shown;
  };
  if (const std::string_view v = tag_value(key, "bytes");
      !v.empty() && v != std::to_string(f.bytes))
    return "a key whose bytes:" + std::string(v) + " matches the record's bytes (" +
           std::to_string(f.bytes) + "), found " + shown;
  if (std::string p = check("ranks", f.nranks, "nranks"); !p.empty()) return p;
  return check("gpp", f.gpus_per_process, "gpus_per_process");
}

}  // namespace fabricgate
