#include "harness/counters/process_tree.hpp"

#include <cstdlib>
#include <map>

#include "harness/fingerprint/text_files.hpp"

namespace fabricgate::counters {

namespace fs = std::filesystem;

namespace {

// /proc/PID/stat: "PID (comm) S PPID ..."; comm may hold spaces and ')' so take the last ')'.
std::optional<unsigned> parent_of(const fs::path& stat_file) {
  const auto text = fingerprint::read_text(stat_file, 4096);
  if (!text) return std::nullopt;
  const auto close = text->rfind(')');
  if (close == std::string::npos || close + 4 >= text->size()) return std::nullopt;
  const char* p = text->c_str() + close + 4;  // ") S " then PPID
  char* end = nullptr;
  const unsigned long ppid = std::strtoul(p, &end, 10);
  if (end == p) return std::nullopt;
  return static_cast<unsigned>(ppid);
}

}  // namespace

std::set<unsigned> descendants_of(const fs::path& root, unsigned ancestor) {
  std::map<unsigned, unsigned> parent;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(root / "proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    if (const auto ppid = parent_of(entry.path() / "stat"))
      parent[static_cast<unsigned>(std::strtoul(name.c_str(), nullptr, 10))] = *ppid;
  }
  std::set<unsigned> out{ancestor};
  for (const auto& [pid, ppid] : parent) {
    // Walk up at most the table's size (a cycle in a fake tree must not hang us).
    unsigned at = pid;
    for (std::size_t steps = 0; steps <= parent.size(); ++steps) {
      if (at == ancestor) {
        out.insert(pid);
        break;
      }
      const auto it = parent.find(at);
      if (it == parent.end() || it->second == 0) break;
      at = it->second;
    }
  }
  return out;
}

bool descends_from(const fs::path& root, unsigned pid, unsigned ancestor) {
  constexpr int kMaxDepth = 64;  // deeper than any launcher chain; a cycle in a fake tree ends
  unsigned at = pid;
  for (int depth = 0; depth < kMaxDepth; ++depth) {
    if (at == ancestor) return true;
    if (at <= 1) return false;
    const auto ppid = parent_of(root / "proc" / std::to_string(at) / "stat");
    if (!ppid) return false;
    at = *ppid;
  }
  return false;
}

std::string process_name(const fs::path& root, unsigned pid) {
  return fingerprint::read_trimmed(root / "proc" / std::to_string(pid) / "comm").value_or("");
}

fs::path process_executable(const fs::path& root, unsigned pid) {
  std::error_code ec;
  const fs::path target = fs::read_symlink(root / "proc" / std::to_string(pid) / "exe", ec);
  return ec ? fs::path() : target;
}

}  // namespace fabricgate::counters
