#include "harness/launch/gpu_capacity.hpp"

#include <algorithm>

namespace fabricgate::launch {

namespace {

bool suite_uses_nccl(const Suite& suite) {
  const json& entries = suite.doc.at("benchmarks");
  return std::any_of(entries.begin(), entries.end(),
                     [](const json& e) { return entry_uses_nccl(e); });
}

std::size_t listed_devices(const std::string& cuda_visible_devices) {
  return static_cast<std::size_t>(
             std::count(cuda_visible_devices.begin(), cuda_visible_devices.end(), ',')) +
         1;
}

}  // namespace

std::string gpu_shortage(const Suite& suite, const LocalLaunch& launch, const json& fingerprint) {
  if (!suite_uses_nccl(suite)) return {};
  const json* devices = nullptr;
  if (auto g = fingerprint.find("gpus"); g != fingerprint.end() && g->is_object()) {
    if (auto d = g->find("devices"); d != g->end() && d->is_array()) devices = &*d;
  }
  if (devices == nullptr || devices->empty()) return {};
  std::size_t gpus = devices->size();
  // NVML sees every GPU; the ranks see only those CUDA_VISIBLE_DEVICES lists (in its order).
  if (!launch.cuda_visible_devices.empty())
    gpus = std::min(gpus, listed_devices(launch.cuda_visible_devices));
  const auto needed = static_cast<std::size_t>(launch.ranks) *
                      static_cast<std::size_t>(std::max(1, launch.gpus_per_process));
  if (needed <= gpus) return {};
  // The bench places local rank r on GPU r % visible: rank `gpus` lands on GPU 0 with rank 0.
  const json& shared = (*devices)[0];
  const std::string uuid =
      shared.is_object() ? shared.value("uuid", std::string("?")) : std::string("?");
  return "P01: " + std::to_string(launch.ranks) + " ranks of suite " + suite.name + " need " +
         std::to_string(needed) + " GPUs on this node, which has " + std::to_string(gpus) + " GPU" +
         (gpus == 1 ? "" : "s") + ": ranks 0 and " +
         std::to_string(gpus / static_cast<std::size_t>(std::max(1, launch.gpus_per_process))) +
         " would both use GPU " + uuid + " and NCCL would wait forever; launch at most " +
         std::to_string(gpus / static_cast<std::size_t>(std::max(1, launch.gpus_per_process))) +
         " rank(s) (--ranks) or add GPUs/hosts (--hostfile)";
}

}  // namespace fabricgate::launch
