#include "bench/backends/cuda_copy/nvml_links.hpp"

#include <dlfcn.h>

#include <cctype>
#include <cstdlib>

#include <fmt/format.h>

namespace fabricgate::bench {

namespace {

// The few NVML declarations used, as in nvml.h (not shipped with every toolkit).
using NvmlReturn = int;  // NVML_SUCCESS = 0
struct NvmlDeviceOpaque;
using NvmlDevice = NvmlDeviceOpaque*;
struct NvmlPciInfo {  // nvmlPciInfo_t
  char bus_id_legacy[16];
  unsigned domain;
  unsigned bus;
  unsigned device;
  unsigned pci_device_id;
  unsigned pci_subsystem_id;
  char bus_id[32];
};
constexpr unsigned kMaxLinks = 18;  // NVML_NVLINK_MAX_LINKS
constexpr int kFeatureEnabled = 1;  // NVML_FEATURE_ENABLED

using InitFn = NvmlReturn (*)();
using HandleByBusFn = NvmlReturn (*)(const char*, NvmlDevice*);
using LinkStateFn = NvmlReturn (*)(NvmlDevice, unsigned, int*);
using LinkPciFn = NvmlReturn (*)(NvmlDevice, unsigned, NvmlPciInfo*);

class Library {
 public:
  explicit Library(const char* name) : handle_(dlopen(name, RTLD_NOW | RTLD_LOCAL)) {}
  ~Library() {
    if (handle_) dlclose(handle_);
  }
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  explicit operator bool() const { return handle_ != nullptr; }
  template <typename Fn>
  Fn function(const char* name) const {
    return handle_ ? reinterpret_cast<Fn>(dlsym(handle_, name)) : nullptr;
  }

 private:
  void* handle_;
};

}  // namespace

std::string normalise_bus_id(const std::string& id) {
  const auto colon = id.find(':');
  if (colon == std::string::npos) return {};
  const unsigned long domain = std::strtoul(id.substr(0, colon).c_str(), nullptr, 16);
  std::string out = fmt::format("{:04x}", domain & 0xffffUL) + id.substr(colon);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::vector<std::vector<std::string>> query_nvlink_remotes(const std::vector<std::string>& bus_ids,
                                                           std::string& reason) {
  const Library nvml("libnvidia-ml.so.1");
  if (!nvml) {
    reason = "NVML (libnvidia-ml.so.1) not found: NVLink counts unknown";
    return {};
  }
  const auto init = nvml.function<InitFn>("nvmlInit_v2");
  const auto shutdown = nvml.function<InitFn>("nvmlShutdown");
  const auto by_bus = nvml.function<HandleByBusFn>("nvmlDeviceGetHandleByPciBusId_v2");
  const auto state = nvml.function<LinkStateFn>("nvmlDeviceGetNvLinkState");
  const auto remote = nvml.function<LinkPciFn>("nvmlDeviceGetNvLinkRemotePciInfo_v2");
  if (!init || !shutdown || !by_bus || !state || !remote) {
    reason = "NVML lacks the NVLink queries: NVLink counts unknown";
    return {};
  }
  if (init() != 0) {
    reason = "nvmlInit failed: NVLink counts unknown";
    return {};
  }
  std::vector<std::vector<std::string>> out(bus_ids.size());
  for (std::size_t g = 0; g < bus_ids.size(); ++g) {
    NvmlDevice device = nullptr;
    if (by_bus(bus_ids[g].c_str(), &device) != 0) {
      reason = "NVML does not know GPU " + bus_ids[g] + ": NVLink counts unknown";
      static_cast<void>(shutdown());
      return {};
    }
    for (unsigned link = 0; link < kMaxLinks; ++link) {
      int active = 0;
      if (state(device, link, &active) != 0 || active != kFeatureEnabled)
        continue;  // absent or down
      NvmlPciInfo pci{};
      out[g].push_back(remote(device, link, &pci) == 0 ? normalise_bus_id(pci.bus_id)
                                                       : std::string());
    }
  }
  static_cast<void>(shutdown());
  return out;
}

}  // namespace fabricgate::bench
