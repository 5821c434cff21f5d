#include "harness/fingerprint/nvml_gpu_query.hpp"

#include <array>
#include <cstring>

#include "harness/fingerprint/dynamic_library.hpp"
#include "harness/fingerprint/nvml_abi.hpp"

namespace fabricgate::fingerprint {

namespace {

// Our own minimal NVML declarations (layouts from the public nvml.h; stable C ABI).
// The declarations both NVML readers share (nvml_abi.hpp); the structures only this query reads
// follow.
using NvmlReturn = nvml::Return;
constexpr NvmlReturn kNvmlSuccess = nvml::kSuccess;
using NvmlDevice = nvml::Device;

struct NvmlPciInfo {  // nvmlPciInfo_t as used by the _v3 / _v2 getters
  char bus_id_legacy[16];
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pci_device_id;
  unsigned int pci_subsystem_id;
  char bus_id[32];
};

struct NvmlMemory {  // nvmlMemory_t (v1)
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};

constexpr unsigned kNvLinkMaxLinks = 18;  // NVML_NVLINK_MAX_LINKS (Hopper and Blackwell: 18)
constexpr int kNvmlFeatureEnabled = 1;    // NVML_FEATURE_ENABLED
constexpr unsigned kTextBuffer = 96;      // NVML_DEVICE_NAME_V2_BUFFER_SIZE, UUID_V2 is 96 too

using InitFn = nvml::InitFn;
using ErrorStringFn = nvml::ErrorStringFn;
using TextFn = NvmlReturn (*)(char*, unsigned);
using IntFn = NvmlReturn (*)(int*);
using CountFn = nvml::CountFn;
using HandleFn = nvml::HandleFn;
using DeviceTextFn = nvml::DeviceTextFn;
using DevicePciFn = NvmlReturn (*)(NvmlDevice, NvmlPciInfo*);
using DeviceMemoryFn = NvmlReturn (*)(NvmlDevice, NvmlMemory*);
using DeviceUnsignedFn = nvml::DeviceUnsignedFn;
using LinkIntFn = NvmlReturn (*)(NvmlDevice, unsigned, int*);
using LinkUnsignedFn = NvmlReturn (*)(NvmlDevice, unsigned, unsigned*);
using LinkPciFn = NvmlReturn (*)(NvmlDevice, unsigned, NvmlPciInfo*);
using AncestorFn = NvmlReturn (*)(NvmlDevice, NvmlDevice, int*);

// Resolved entry points; any may be null on an older driver, and each use checks.
struct NvmlApi {
  explicit NvmlApi(const DynamicLibrary& lib)
      : init(first_of<InitFn>(lib, "nvmlInit_v2", "nvmlInit")),
        shutdown(lib.function<InitFn>("nvmlShutdown")),
        error_string(lib.function<ErrorStringFn>("nvmlErrorString")),
        driver_version(lib.function<TextFn>("nvmlSystemGetDriverVersion")),
        cuda_driver_version(first_of<IntFn>(lib, "nvmlSystemGetCudaDriverVersion_v2",
                                            "nvmlSystemGetCudaDriverVersion")),
        count(first_of<CountFn>(lib, "nvmlDeviceGetCount_v2", "nvmlDeviceGetCount")),
        handle(
            first_of<HandleFn>(lib, "nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex")),
        name(lib.function<DeviceTextFn>("nvmlDeviceGetName")),
        uuid(lib.function<DeviceTextFn>("nvmlDeviceGetUUID")),
        pci(lib.function<DevicePciFn>("nvmlDeviceGetPciInfo_v3")),
        memory(lib.function<DeviceMemoryFn>("nvmlDeviceGetMemoryInfo")),
        architecture(lib.function<DeviceUnsignedFn>("nvmlDeviceGetArchitecture")),
        curr_gen(lib.function<DeviceUnsignedFn>("nvmlDeviceGetCurrPcieLinkGeneration")),
        max_gen(lib.function<DeviceUnsignedFn>("nvmlDeviceGetMaxPcieLinkGeneration")),
        curr_width(lib.function<DeviceUnsignedFn>("nvmlDeviceGetCurrPcieLinkWidth")),
        max_width(lib.function<DeviceUnsignedFn>("nvmlDeviceGetMaxPcieLinkWidth")),
        link_state(lib.function<LinkIntFn>("nvmlDeviceGetNvLinkState")),
        link_version(lib.function<LinkUnsignedFn>("nvmlDeviceGetNvLinkVersion")),
        link_remote_pci(lib.function<LinkPciFn>("nvmlDeviceGetNvLinkRemotePciInfo_v2")),
        link_remote_type(lib.function<LinkIntFn>("nvmlDeviceGetNvLinkRemoteDeviceType")),
        common_ancestor(lib.function<AncestorFn>("nvmlDeviceGetTopologyCommonAncestor")) {}

  template <class Fn>
  static Fn first_of(const DynamicLibrary& lib, const char* newer, const char* older) {
    return nvml::first_of<Fn>(lib, {newer, older});
  }

  std::string describe(NvmlReturn rc) const { return nvml::describe(error_string, rc); }

  InitFn init;
  InitFn shutdown;
  ErrorStringFn error_string;
  TextFn driver_version;
  IntFn cuda_driver_version;
  CountFn count;
  HandleFn handle;
  DeviceTextFn name;
  DeviceTextFn uuid;
  DevicePciFn pci;
  DeviceMemoryFn memory;
  DeviceUnsignedFn architecture;
  DeviceUnsignedFn curr_gen;
  DeviceUnsignedFn max_gen;
  DeviceUnsignedFn curr_width;
  DeviceUnsignedFn max_width;
  LinkIntFn link_state;
  LinkUnsignedFn link_version;
  LinkPciFn link_remote_pci;
  LinkIntFn link_remote_type;
  AncestorFn common_ancestor;
};

std::string text_of(DeviceTextFn fn, NvmlDevice device) {
  std::array<char, kTextBuffer> buffer{};
  if (fn == nullptr || fn(device, buffer.data(), kTextBuffer) != kNvmlSuccess) return {};
  return std::string(buffer.data(), strnlen(buffer.data(), buffer.size()));
}

unsigned unsigned_of(DeviceUnsignedFn fn, NvmlDevice device) {
  unsigned value = 0;
  if (fn == nullptr || fn(device, &value) != kNvmlSuccess) return 0;
  return value;
}

std::string bus_id_of(const NvmlPciInfo& info) {
  return std::string(info.bus_id, strnlen(info.bus_id, sizeof(info.bus_id)));
}

NvLinkRemote remote_of(int nvml_type) {
  switch (nvml_type) {
    case 0: return NvLinkRemote::gpu;       // NVML_NVLINK_DEVICE_TYPE_GPU
    case 1: return NvLinkRemote::other;     // NVML_NVLINK_DEVICE_TYPE_IBMNPU
    case 2: return NvLinkRemote::nvswitch;  // NVML_NVLINK_DEVICE_TYPE_SWITCH
    default: return NvLinkRemote::unknown;
  }
}

std::vector<NvLinkRecord> active_links(const NvmlApi& api, NvmlDevice device) {
  std::vector<NvLinkRecord> links;
  if (api.link_state == nullptr) return links;
  for (unsigned link = 0; link < kNvLinkMaxLinks; ++link) {
    int state = 0;
    // A GPU without NVLink answers NOT_SUPPORTED for every index: simply no active links.
    if (api.link_state(device, link, &state) != kNvmlSuccess || state != kNvmlFeatureEnabled) {
      continue;
    }
    NvLinkRecord record;
    record.link = link;
    if (api.link_version != nullptr) api.link_version(device, link, &record.nvml_version);
    int type = -1;
    if (api.link_remote_type != nullptr &&
        api.link_remote_type(device, link, &type) == kNvmlSuccess) {
      record.remote = remote_of(type);
    }
    NvmlPciInfo remote{};
    if (api.link_remote_pci != nullptr &&
        api.link_remote_pci(device, link, &remote) == kNvmlSuccess) {
      record.remote_bus_id = bus_id_of(remote);
    }
    links.push_back(record);
  }
  return links;
}

GpuRecord read_device(const NvmlApi& api, NvmlDevice device) {
  GpuRecord gpu;
  gpu.name = text_of(api.name, device);
  gpu.uuid = text_of(api.uuid, device);
  NvmlPciInfo pci{};
  if (api.pci != nullptr && api.pci(device, &pci) == kNvmlSuccess) gpu.pci_bus_id = bus_id_of(pci);
  NvmlMemory memory{};
  if (api.memory != nullptr && api.memory(device, &memory) == kNvmlSuccess) {
    gpu.memory_bytes = memory.total;
  }
  gpu.architecture = unsigned_of(api.architecture, device);
  gpu.pcie.current_gen = unsigned_of(api.curr_gen, device);
  gpu.pcie.max_gen = unsigned_of(api.max_gen, device);
  gpu.pcie.current_width = unsigned_of(api.curr_width, device);
  gpu.pcie.max_width = unsigned_of(api.max_width, device);
  gpu.active_nvlinks = active_links(api, device);
  return gpu;
}

void read_system(const NvmlApi& api, GpuInventory& inventory) {
  std::array<char, 128> driver{};  // NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE is 80
  if (api.driver_version != nullptr &&
      api.driver_version(driver.data(), static_cast<unsigned>(driver.size())) == kNvmlSuccess) {
    inventory.driver_version = std::string(driver.data(), strnlen(driver.data(), driver.size()));
  }
  if (api.cuda_driver_version != nullptr) api.cuda_driver_version(&inventory.cuda_driver_version);
}

void read_devices(const NvmlApi& api, GpuInventory& inventory) {
  unsigned count = 0;
  if (api.count == nullptr || api.handle == nullptr) {
    inventory.reason = "NVML lacks nvmlDeviceGetCount/nvmlDeviceGetHandleByIndex";
    return;
  }
  if (const NvmlReturn rc = api.count(&count); rc != kNvmlSuccess) {
    inventory.reason = "nvmlDeviceGetCount failed: " + api.describe(rc);
    return;
  }
  std::vector<NvmlDevice> handles;
  for (unsigned i = 0; i < count; ++i) {
    NvmlDevice device = nullptr;
    if (const NvmlReturn rc = api.handle(i, &device); rc != kNvmlSuccess) {
      inventory.problems.push_back("GPU " + std::to_string(i) + ": " + api.describe(rc));
      continue;
    }
    handles.push_back(device);
    inventory.devices.push_back(read_device(api, device));
  }
  const std::size_t n = handles.size();
  inventory.common_ancestor.assign(n, std::vector<int>(n, kTopologyUnknown));
  for (std::size_t i = 0; i < n && api.common_ancestor != nullptr; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      int level = kTopologyUnknown;
      if (api.common_ancestor(handles[i], handles[j], &level) != kNvmlSuccess) {
        level = kTopologyUnknown;
      }
      inventory.common_ancestor[i][j] = level;
      inventory.common_ancestor[j][i] = level;
    }
  }
  inventory.available = !inventory.devices.empty();
  if (!inventory.available) inventory.reason = "NVML reports no usable GPU";
}

}  // namespace

GpuInventory NvmlGpuQuery::query() const {
  GpuInventory inventory;
  const DynamicLibrary lib(soname_);
  if (!lib.loaded()) {
    inventory.reason = "NVML not found: " + lib.error();
    return inventory;
  }
  const NvmlApi api(lib);
  if (api.init == nullptr) {
    inventory.reason = "NVML: " + soname_ + " has no nvmlInit";
    return inventory;
  }
  if (const NvmlReturn rc = api.init(); rc != kNvmlSuccess) {
    inventory.reason = "NVML initialisation failed: " + api.describe(rc);
    return inventory;
  }
  read_system(api, inventory);
  read_devices(api, inventory);
  if (api.shutdown != nullptr) api.shutdown();
  return inventory;
}

}  // namespace fabricgate::fingerprint
