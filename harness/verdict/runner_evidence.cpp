#include "harness/verdict/runner_evidence.hpp"

#include <fmt/format.h>

namespace fabricgate::gate {

std::string RunnerEvidence::summary() const {
  if (foreign_processes.empty()) return {};
  const ForeignGpuProcess& f = foreign_processes.front();
  std::string text = fmt::format("pid {} ({}) on GPU {}", f.pid, f.name.empty() ? "?" : f.name,
                                 f.gpu_index);
  if (f.used_memory_bytes > 0)
    text += fmt::format(", {:.1f} GiB", static_cast<double>(f.used_memory_bytes) / (1ULL << 30));
  if (f.sm_percent) text += fmt::format(", {:.0f} % of the SMs", *f.sm_percent);
  if (foreign_processes.size() > 1)
    text += fmt::format(" (+{} more)", foreign_processes.size() - 1);
  return text;
}

}  // namespace fabricgate::gate
