#include "harness/model/suite_advice.hpp"

namespace fabricgate {

namespace {

// Families whose fixtures launch CUDA kernels (fill, SM copy, check) of their own.
bool launches_kernels(const json& entry) {
  const std::string family = entry.value("family", "");
  return family == "p2p" || family == "devcopy";
}

std::string entry_list(const std::vector<std::size_t>& indices) {
  std::string text;
  for (std::size_t i : indices)
    text += (text.empty() ? "" : ", ") + std::string("/benchmarks/") + std::to_string(i);
  return text;
}

}  // namespace

std::vector<std::string> suite_advice(const Suite& suite) {
  std::vector<std::string> advice;
  const auto found = suite.doc.find("benchmarks");
  if (found == suite.doc.end() || !found->is_array()) return advice;
  const json& benchmarks = *found;
  std::vector<std::size_t> nccl;
  std::vector<std::size_t> kernels;
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    if (!benchmarks[i].is_object()) continue;
    if (entry_uses_nccl(benchmarks[i])) nccl.push_back(i);
    if (launches_kernels(benchmarks[i])) kernels.push_back(i);
  }
  if (!nccl.empty() && !kernels.empty()) {
    advice.push_back(
        "suite " + suite.name + " runs GPU copy fixtures (" + entry_list(kernels) +
        ") in the same process as NCCL benchmarks (" + entry_list(nccl) +
        "): their kernels can move all_gather/reduce_scatter by up to 8 % from one run to the "
        "next (docs/DESIGN.md, \"The data check\"); put them in separate suites");
  }
  return advice;
}

}  // namespace fabricgate
