#include "harness/counters/psi_counters.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace fabricgate::counters {

std::map<std::string, std::uint64_t> parse_psi_totals(const std::string& text) {
  std::map<std::string, std::uint64_t> out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    const auto space = line.find(' ');
    const auto at = line.find(" total=");
    if (space == std::string::npos || at == std::string::npos) continue;
    const std::string kind = line.substr(0, space);
    if (kind != "some" && kind != "full") continue;
    const std::string digits = line.substr(at + 7);
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    errno = 0;
    const unsigned long long v = std::strtoull(digits.c_str(), nullptr, 10);
    if (errno != ERANGE) out[kind] = v;
  }
  return out;
}

DeviceSample read_psi_sample(const std::filesystem::path& root, const std::string& host_name) {
  DeviceSample s;
  s.kind = "host";
  s.device = host_name;
  for (const char* resource : {"cpu", "memory", "io"}) {
    const std::filesystem::path file = root / "proc" / "pressure" / resource;
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      s.unread.push_back({std::string("psi_") + resource,
                          file.string() + ": " + std::strerror(errno) +
                              " (no PSI: kernel < 4.20, psi=0, or hidden by the container)"});
      continue;
    }
    std::ostringstream text;
    text << in.rdbuf();
    const auto totals = parse_psi_totals(text.str());
    if (totals.empty())
      s.unread.push_back({std::string("psi_") + resource, file.string() + ": no total= line"});
    for (const auto& [kind, us] : totals)
      s.counters[std::string("psi_") + resource + "_" + kind + "_us"] =
          RawCounter{us, Overflow::wraps, 64};
  }
  return s;
}

}  // namespace fabricgate::counters
