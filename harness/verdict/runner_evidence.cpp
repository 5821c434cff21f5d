#include "harness/verdict/runner_evidence.hpp"

#include <fmt/format.h>

namespace fabricgate::verdict {

std::string RunnerEvidence::summary() const {
  if (foreign_processes.empty()) return {};
  const ForeignGpuProcess& f = foreign_processes.front();
  std::string text =
      fmt::format("pid {} ({}) on GPU {}", f.pid, f.name.empty() ? "?" : f.name, f.gpu_index);
  if (f.used_memory_bytes > 0)
    text += fmt::format(", {:.1f} GiB", static_cast<double>(f.used_memory_bytes) / (1ULL << 30));
  if (f.sm_percent) text += fmt::format(", {:.0f} % of the SMs", *f.sm_percent);
  if (foreign_processes.size() > 1)
    text += fmt::format(" (+{} more)", foreign_processes.size() - 1);
  return text;
}

std::vector<std::string> RunnerEvidence::lines() const {
  std::vector<std::string> out;
  for (const ForeignGpuProcess& f : foreign_processes) {
    std::string line =
        fmt::format("GPU {} ran a compute process that is not the launch's: pid {} ({})",
                    f.gpu_index, f.pid, f.name.empty() ? "?" : f.name);
    if (f.used_memory_bytes > 0)
      line += fmt::format(", {:.1f} GiB", static_cast<double>(f.used_memory_bytes) / (1ULL << 30));
    if (f.sm_percent) line += fmt::format(", {:.0f} % of the SMs", *f.sm_percent);
    line += " in launch " + f.launch + " (seen at " + f.seen + ")";
    if (busy_gpu) line += ": runner busy, not judged";
    out.push_back(std::move(line));
  }
  for (const std::string& t : throttling) out.push_back("throttled: " + t);
  for (const std::string& u : unread) out.push_back("not read: " + u);
  return out;
}

}  // namespace fabricgate::verdict
