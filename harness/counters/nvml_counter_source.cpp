#include "harness/counters/nvml_counter_source.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>

#include "harness/fingerprint/dynamic_library.hpp"
#include "harness/fingerprint/nvml_abi.hpp"

namespace fabricgate::counters {

namespace {

// Our own minimal NVML declarations (layouts from the public nvml.h; stable C ABI).
// The declarations both NVML readers share (harness/fingerprint/nvml_abi.hpp); the structures
// only the counters read follow.
using NvmlReturn = fingerprint::nvml::Return;
using NvmlDevice = fingerprint::nvml::Device;
using fingerprint::nvml::first_of;
using fingerprint::nvml::kGpuIsLost;
using fingerprint::nvml::kInsufficientSize;
using fingerprint::nvml::kSuccess;
struct NvmlEventSetOpaque;
using NvmlEventSet = NvmlEventSetOpaque*;

struct ProcessInfo {  // nvmlProcessInfo_t (= v2 layout), taken by the _v3 and _v2 getters
  unsigned int pid;
  unsigned long long used_gpu_memory;
  unsigned int gpu_instance_id;
  unsigned int compute_instance_id;
};
struct ProcessInfoV1 {  // nvmlProcessInfo_v1_t, the unversioned getter's
  unsigned int pid;
  unsigned long long used_gpu_memory;
};
struct ProcessUtilizationSample {  // nvmlProcessUtilizationSample_t
  unsigned int pid;
  unsigned long long time_stamp;  // microseconds, CPU clock
  unsigned int sm_util;
  unsigned int mem_util;
  unsigned int enc_util;
  unsigned int dec_util;
};
struct ViolationTime {  // nvmlViolationTime_t (nanoseconds)
  unsigned long long reference_time;
  unsigned long long violation_time;
};
struct FieldValue {  // nvmlFieldValue_t
  unsigned int field_id;
  unsigned int scope_id;
  long long timestamp;
  long long latency_usec;
  int value_type;  // nvmlValueType_t
  NvmlReturn nvml_return;
  union {
    double d;
    unsigned int ui;
    unsigned long ul;
    unsigned long long ull;
    signed long long sll;
  } value;
};
struct EventData {  // nvmlEventData_t
  NvmlDevice device;
  unsigned long long event_type;
  unsigned long long event_data;
  unsigned int gpu_instance_id;
  unsigned int compute_instance_id;
};

constexpr unsigned long long kEventXidCritical = 0x8;  // nvmlEventTypeXidCriticalError

using InitFn = fingerprint::nvml::InitFn;
using ErrorStringFn = fingerprint::nvml::ErrorStringFn;
using CountFn = fingerprint::nvml::CountFn;
using HandleFn = fingerprint::nvml::HandleFn;
using TextFn = fingerprint::nvml::DeviceTextFn;
using UnsignedFn = fingerprint::nvml::DeviceUnsignedFn;
using ULongLongFn = NvmlReturn (*)(NvmlDevice, unsigned long long*);
using ClockFn = NvmlReturn (*)(NvmlDevice, int, unsigned*);
using EccFn = NvmlReturn (*)(NvmlDevice, int, int, unsigned long long*);
using RemappedFn = NvmlReturn (*)(NvmlDevice, unsigned*, unsigned*, unsigned*, unsigned*);
using ViolationFn = NvmlReturn (*)(NvmlDevice, int, ViolationTime*);
using FieldsFn = NvmlReturn (*)(NvmlDevice, int, FieldValue*);
using ProcessesFn = NvmlReturn (*)(NvmlDevice, unsigned*, ProcessInfo*);
using ProcessesV1Fn = NvmlReturn (*)(NvmlDevice, unsigned*, ProcessInfoV1*);
using UtilizationFn = NvmlReturn (*)(NvmlDevice, ProcessUtilizationSample*, unsigned*,
                                     unsigned long long);
using EventSetCreateFn = NvmlReturn (*)(NvmlEventSet*);
using EventSetFreeFn = NvmlReturn (*)(NvmlEventSet);
using RegisterEventsFn = NvmlReturn (*)(NvmlDevice, unsigned long long, NvmlEventSet);
using EventWaitFn = NvmlReturn (*)(NvmlEventSet, EventData*, unsigned);

// The process's one NVML: loaded and initialised on first use, never shut down (a later launch
// of the same `fabricgate run` reuses it; the driver cleans up at exit).
struct Nvml {
  explicit Nvml(const std::string& soname) : lib(soname, /*keep_loaded=*/true) {
    if (!lib.loaded()) {
      reason = "NVML not found: " + lib.error();
      return;
    }
    const auto init = first_of<InitFn>(lib, {"nvmlInit_v2", "nvmlInit"});
    error_string = lib.function<ErrorStringFn>("nvmlErrorString");
    if (init == nullptr) {
      reason = "NVML: " + soname + " has no nvmlInit";
      return;
    }
    if (const NvmlReturn rc = init(); rc != kSuccess) {
      reason = "NVML initialisation failed: " + describe(rc);
      return;
    }
    count = first_of<CountFn>(lib, {"nvmlDeviceGetCount_v2", "nvmlDeviceGetCount"});
    handle =
        first_of<HandleFn>(lib, {"nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex"});
    uuid = lib.function<TextFn>("nvmlDeviceGetUUID");
    clock = lib.function<ClockFn>("nvmlDeviceGetClockInfo");
    temperature = lib.function<ClockFn>("nvmlDeviceGetTemperature");
    power = lib.function<UnsignedFn>("nvmlDeviceGetPowerUsage");
    energy = lib.function<ULongLongFn>("nvmlDeviceGetTotalEnergyConsumption");
    pcie_gen = lib.function<UnsignedFn>("nvmlDeviceGetCurrPcieLinkGeneration");
    pcie_width = lib.function<UnsignedFn>("nvmlDeviceGetCurrPcieLinkWidth");
    pcie_replay = lib.function<UnsignedFn>("nvmlDeviceGetPcieReplayCounter");
    reasons = first_of<ULongLongFn>(lib, {"nvmlDeviceGetCurrentClocksEventReasons",
                                          "nvmlDeviceGetCurrentClocksThrottleReasons"});
    ecc = lib.function<EccFn>("nvmlDeviceGetTotalEccErrors");
    remapped = lib.function<RemappedFn>("nvmlDeviceGetRemappedRows");
    violation = lib.function<ViolationFn>("nvmlDeviceGetViolationStatus");
    fields = lib.function<FieldsFn>("nvmlDeviceGetFieldValues");
    processes = first_of<ProcessesFn>(lib, {"nvmlDeviceGetComputeRunningProcesses_v3",
                                            "nvmlDeviceGetComputeRunningProcesses_v2"});
    if (processes == nullptr)
      processes_v1 = lib.function<ProcessesV1Fn>("nvmlDeviceGetComputeRunningProcesses");
    utilization = lib.function<UtilizationFn>("nvmlDeviceGetProcessUtilization");
    event_set_create = lib.function<EventSetCreateFn>("nvmlEventSetCreate");
    event_set_free = lib.function<EventSetFreeFn>("nvmlEventSetFree");
    register_events = lib.function<RegisterEventsFn>("nvmlDeviceRegisterEvents");
    event_wait = first_of<EventWaitFn>(lib, {"nvmlEventSetWait_v2", "nvmlEventSetWait"});
    if (count == nullptr || handle == nullptr) {
      reason = "NVML lacks nvmlDeviceGetCount/nvmlDeviceGetHandleByIndex";
      return;
    }
    ready = true;
  }

  std::string describe(NvmlReturn rc) const {
    return fingerprint::nvml::describe(error_string, rc);
  }

  fingerprint::DynamicLibrary lib;
  bool ready = false;
  std::string reason;
  ErrorStringFn error_string = nullptr;
  CountFn count = nullptr;
  HandleFn handle = nullptr;
  TextFn uuid = nullptr;
  ClockFn clock = nullptr;
  ClockFn temperature = nullptr;
  UnsignedFn power = nullptr;
  ULongLongFn energy = nullptr;
  UnsignedFn pcie_gen = nullptr;
  UnsignedFn pcie_width = nullptr;
  UnsignedFn pcie_replay = nullptr;
  ULongLongFn reasons = nullptr;
  EccFn ecc = nullptr;
  RemappedFn remapped = nullptr;
  ViolationFn violation = nullptr;
  FieldsFn fields = nullptr;
  ProcessesFn processes = nullptr;
  ProcessesV1Fn processes_v1 = nullptr;
  UtilizationFn utilization = nullptr;
  EventSetCreateFn event_set_create = nullptr;
  EventSetFreeFn event_set_free = nullptr;
  RegisterEventsFn register_events = nullptr;
  EventWaitFn event_wait = nullptr;
};

const Nvml& nvml(const std::string& soname) {
  static std::mutex guard;
  static std::map<std::string, std::unique_ptr<Nvml>> loaded;
  const std::lock_guard<std::mutex> lock(guard);
  auto& slot = loaded[soname];
  if (!slot) slot = std::make_unique<Nvml>(soname);
  return *slot;
}

// Clock-event reason bits (nvmlClocksEventReason*), named as docs/COUNTERS.md lists them.
constexpr std::array<std::pair<unsigned long long, const char*>, 9> kReasonBits = {{
    {0x1, "gpu_idle"},
    {0x2, "applications_clocks_setting"},
    {0x4, "sw_power_cap"},
    {0x8, "hw_slowdown"},
    {0x10, "sync_boost"},
    {0x20, "sw_thermal_slowdown"},
    {0x40, "hw_thermal_slowdown"},
    {0x80, "hw_power_brake_slowdown"},
    {0x100, "display_clock_setting"},
}};

// nvmlPerfPolicyType_t -> counter name (nanoseconds the policy held the clocks down).
constexpr std::array<std::pair<int, const char*>, 5> kViolationPolicies = {{
    {0, "power_violation_ns"},
    {1, "thermal_violation_ns"},
    {2, "sync_boost_violation_ns"},
    {3, "board_limit_violation_ns"},
    {5, "reliability_violation_ns"},
}};

// NVLink error totals over all links (NVML_FI_DEV_NVLINK_*_ERROR_COUNT_TOTAL).
constexpr std::array<std::pair<unsigned, const char*>, 4> kNvLinkFields = {{
    {38, "nvlink_crc_flit_errors"},
    {45, "nvlink_crc_data_errors"},
    {52, "nvlink_replay_errors"},
    {59, "nvlink_recovery_errors"},
}};

class DeviceReader {
 public:
  DeviceReader(const Nvml& api, NvmlDevice device, DeviceSample& out)
      : api_(api), device_(device), out_(out) {}

  void unread(const std::string& what, NvmlReturn rc) {
    out_.unread.push_back({what, api_.describe(rc)});
  }
  void missing(const std::string& what, const char* symbol) {
    out_.unread.push_back({what, std::string("NVML has no ") + symbol});
  }

  void gauge_unsigned(const char* name, UnsignedFn fn, const char* symbol, double scale = 1) {
    if (fn == nullptr) return missing(name, symbol);
    unsigned v = 0;
    if (const NvmlReturn rc = fn(device_, &v); rc != kSuccess) return unread(name, rc);
    out_.gauges[name] = static_cast<double>(v) * scale;
  }
  void gauge_clock(const char* name, ClockFn fn, int which, const char* symbol) {
    if (fn == nullptr) return missing(name, symbol);
    unsigned v = 0;
    if (const NvmlReturn rc = fn(device_, which, &v); rc != kSuccess) return unread(name, rc);
    out_.gauges[name] = static_cast<double>(v);
  }
  void counter(const std::string& name, std::uint64_t value, unsigned bits) {
    out_.counters[name] = RawCounter{value, Overflow::wraps, bits};
  }

  void clock_reasons() {
    if (api_.reasons == nullptr)
      return missing("clock_event_reasons", "nvmlDeviceGetCurrentClocksEventReasons");
    unsigned long long bits = 0;
    if (const NvmlReturn rc = api_.reasons(device_, &bits); rc != kSuccess)
      return unread("clock_event_reasons", rc);
    for (const auto& [bit, name] : kReasonBits) {
      if ((bits & bit) != 0) out_.events.emplace_back(name);
    }
  }

  void full() {
    gauge_clock("sm_clock_mhz", api_.clock, 1, "nvmlDeviceGetClockInfo");   // NVML_CLOCK_SM
    gauge_clock("mem_clock_mhz", api_.clock, 2, "nvmlDeviceGetClockInfo");  // NVML_CLOCK_MEM
    gauge_clock("temperature_c", api_.temperature, 0, "nvmlDeviceGetTemperature");
    gauge_unsigned("power_w", api_.power, "nvmlDeviceGetPowerUsage", 1e-3);  // milliwatts
    gauge_unsigned("pcie_gen", api_.pcie_gen, "nvmlDeviceGetCurrPcieLinkGeneration");
    gauge_unsigned("pcie_width", api_.pcie_width, "nvmlDeviceGetCurrPcieLinkWidth");
    clock_reasons();
    if (api_.energy != nullptr) {
      unsigned long long mj = 0;
      if (const NvmlReturn rc = api_.energy(device_, &mj); rc == kSuccess)
        counter("energy_mj", mj, 64);
      else
        unread("energy_mj", rc);
    }
    if (api_.pcie_replay == nullptr) {
      missing("pcie_replay", "nvmlDeviceGetPcieReplayCounter");
    } else {
      unsigned v = 0;
      if (const NvmlReturn rc = api_.pcie_replay(device_, &v); rc == kSuccess)
        counter("pcie_replay", v, 32);
      else
        unread("pcie_replay", rc);
    }
    ecc();
    remapped();
    violations();
    nvlink();
  }

 private:
  void ecc() {
    if (api_.ecc == nullptr) return missing("ecc", "nvmlDeviceGetTotalEccErrors");
    // NVML_MEMORY_ERROR_TYPE_CORRECTED / UNCORRECTED, NVML_VOLATILE_ECC (since the driver loaded)
    for (const auto& [type, name] :
         {std::pair{0, "ecc_volatile_corrected"}, std::pair{1, "ecc_volatile_uncorrected"}}) {
      unsigned long long v = 0;
      if (const NvmlReturn rc = api_.ecc(device_, type, 0, &v); rc == kSuccess)
        counter(name, v, 64);
      else
        unread(name, rc);
    }
  }
  void remapped() {
    if (api_.remapped == nullptr) return missing("remapped_rows", "nvmlDeviceGetRemappedRows");
    unsigned correctable = 0, uncorrectable = 0, pending = 0, failure = 0;
    if (const NvmlReturn rc =
            api_.remapped(device_, &correctable, &uncorrectable, &pending, &failure);
        rc != kSuccess)
      return unread("remapped_rows", rc);
    counter("remapped_rows_correctable", correctable, 64);
    counter("remapped_rows_uncorrectable", uncorrectable, 64);
    out_.gauges["remapping_pending"] = pending;
    out_.gauges["remapping_failed"] = failure;
  }
  void violations() {
    if (api_.violation == nullptr) return missing("violation_time", "nvmlDeviceGetViolationStatus");
    for (const auto& [policy, name] : kViolationPolicies) {
      ViolationTime t{};
      if (const NvmlReturn rc = api_.violation(device_, policy, &t); rc == kSuccess)
        counter(name, t.violation_time, 64);
      else
        unread(name, rc);
    }
  }
  void nvlink() {
    if (api_.fields == nullptr) return missing("nvlink_errors", "nvmlDeviceGetFieldValues");
    std::array<FieldValue, kNvLinkFields.size()> values{};
    for (std::size_t i = 0; i < values.size(); ++i) values[i].field_id = kNvLinkFields[i].first;
    if (const NvmlReturn rc = api_.fields(device_, static_cast<int>(values.size()), values.data());
        rc != kSuccess)
      return unread("nvlink_errors", rc);
    for (std::size_t i = 0; i < values.size(); ++i) {
      const char* name = kNvLinkFields[i].second;
      if (values[i].nvml_return != kSuccess) {
        unread(name, values[i].nvml_return);
        continue;
      }
      // Counts come back as unsigned long long (type 3); take the other integer types too.
      std::uint64_t v = 0;
      switch (values[i].value_type) {
        case 1: v = values[i].value.ui; break;
        case 2: v = values[i].value.ul; break;
        case 3: v = values[i].value.ull; break;
        case 4:
          v = static_cast<std::uint64_t>(values[i].value.sll < 0 ? 0 : values[i].value.sll);
          break;
        default:
          out_.unread.push_back(
              {name, "unexpected value type " + std::to_string(values[i].value_type)});
          continue;
      }
      counter(name, v, 64);
    }
  }

  const Nvml& api_;
  NvmlDevice device_;
  DeviceSample& out_;
};

std::string uuid_of(const Nvml& api, NvmlDevice device, NvmlReturn& rc) {
  std::array<char, 96> buffer{};  // NVML_DEVICE_UUID_V2_BUFFER_SIZE
  rc = api.uuid == nullptr ? kSuccess
                           : api.uuid(device, buffer.data(), static_cast<unsigned>(buffer.size()));
  return std::string(buffer.data(), strnlen(buffer.data(), buffer.size()));
}

std::vector<GpuProcess> processes_of(const Nvml& api, NvmlDevice device, DeviceSample& out,
                                     bool& read) {
  std::vector<GpuProcess> list;
  read = false;
  constexpr unsigned kMaxProcesses = 256;
  unsigned count = kMaxProcesses;
  NvmlReturn rc = 0;
  if (api.processes != nullptr) {
    std::vector<ProcessInfo> infos(kMaxProcesses);
    rc = api.processes(device, &count, infos.data());
    if (rc == kSuccess)
      for (unsigned i = 0; i < count && i < kMaxProcesses; ++i)
        list.push_back({infos[i].pid, infos[i].used_gpu_memory, std::nullopt});
  } else if (api.processes_v1 != nullptr) {
    std::vector<ProcessInfoV1> infos(kMaxProcesses);
    rc = api.processes_v1(device, &count, infos.data());
    if (rc == kSuccess)
      for (unsigned i = 0; i < count && i < kMaxProcesses; ++i)
        list.push_back({infos[i].pid, infos[i].used_gpu_memory, std::nullopt});
  } else {
    out.unread.push_back({"compute_processes", "NVML has no nvmlDeviceGetComputeRunningProcesses"});
    return list;
  }
  if (rc != kSuccess) {
    out.unread.push_back({"compute_processes", api.describe(rc)});
    return list;
  }
  read = true;
  // NVML reports an unknown amount (another container's process) as NVML_VALUE_NOT_AVAILABLE.
  for (GpuProcess& p : list)
    if (p.used_memory_bytes == ~0ULL) p.used_memory_bytes = 0;
  return list;
}

void add_utilization(const Nvml& api, NvmlDevice device, unsigned long long since_us,
                     std::vector<GpuProcess>& list, DeviceSample& out) {
  if (api.utilization == nullptr || list.empty()) return;
  unsigned count = 0;
  NvmlReturn rc = api.utilization(device, nullptr, &count, since_us);
  if (rc != kInsufficientSize && rc != kSuccess) {
    out.unread.push_back({"process_utilization", api.describe(rc)});
    return;
  }
  if (count == 0) return;
  std::vector<ProcessUtilizationSample> samples(count);
  rc = api.utilization(device, samples.data(), &count, since_us);
  if (rc != kSuccess) {
    out.unread.push_back({"process_utilization", api.describe(rc)});
    return;
  }
  std::map<unsigned, std::pair<double, unsigned>> sums;
  for (unsigned i = 0; i < count && i < samples.size(); ++i) {
    auto& [sum, n] = sums[samples[i].pid];
    sum += samples[i].sm_util;
    ++n;
  }
  for (GpuProcess& p : list) {
    if (const auto it = sums.find(p.pid); it != sums.end() && it->second.second > 0)
      p.sm_percent = it->second.first / it->second.second;
  }
}

unsigned long long now_us() {
  return static_cast<unsigned long long>(std::chrono::duration_cast<std::chrono::microseconds>(
                                             std::chrono::system_clock::now().time_since_epoch())
                                             .count());
}

}  // namespace

struct NvmlCounterSource::Window {
  unsigned long long started_us = 0;
  NvmlEventSet events = nullptr;
  std::vector<NvmlDevice> handles;  // by NVML index, registered for XID events
  std::string events_reason;        // why XID events are not watched
};

NvmlCounterSource::NvmlCounterSource(std::string soname) : soname_(std::move(soname)) {}

NvmlCounterSource::~NvmlCounterSource() {
  const Nvml& api = nvml(soname_);
  if (window_ && window_->events != nullptr && api.event_set_free != nullptr)
    api.event_set_free(window_->events);
}

namespace {

enum class Depth { full, cheap };

GpuSnapshot read_all(const Nvml& api, Depth depth, std::vector<NvmlDevice>* handles) {
  GpuSnapshot snap;
  if (!api.ready) {
    snap.reason = api.reason;
    return snap;
  }
  unsigned count = 0;
  if (const NvmlReturn rc = api.count(&count); rc != kSuccess) {
    snap.reason = "nvmlDeviceGetCount failed: " + api.describe(rc);
    return snap;
  }
  snap.available = true;
  for (unsigned i = 0; i < count; ++i) {
    NvmlDevice device = nullptr;
    if (const NvmlReturn rc = api.handle(i, &device); rc != kSuccess) {
      snap.unread.push_back({"GPU " + std::to_string(i), api.describe(rc)});
      continue;  // a GPU that fell off the bus: absent here, `vanished` in the deltas
    }
    GpuSample g;
    g.index = i;
    g.sample.kind = "gpu";
    g.sample.device = "GPU " + std::to_string(i);
    NvmlReturn rc = kSuccess;
    g.sample.identity = uuid_of(api, device, rc);
    if (rc == kGpuIsLost) {
      snap.unread.push_back({g.sample.device, api.describe(rc)});
      continue;
    }
    if (handles) handles->push_back(device);
    DeviceReader reader(api, device, g.sample);
    if (depth == Depth::full)
      reader.full();
    else
      reader.clock_reasons();
    g.processes = processes_of(api, device, g.sample, g.processes_read);
    snap.gpus.push_back(std::move(g));
  }
  return snap;
}

}  // namespace

GpuSnapshot NvmlCounterSource::start() {
  const Nvml& api = nvml(soname_);
  if (window_ && window_->events != nullptr && api.event_set_free != nullptr)
    api.event_set_free(window_->events);
  window_ = std::make_unique<Window>();
  window_->started_us = now_us();
  GpuSnapshot snap = read_all(api, Depth::full, &window_->handles);
  if (!snap.available) return snap;
  // XID events queue in an event set from registration on; end() drains it without waiting.
  if (api.event_set_create == nullptr || api.register_events == nullptr ||
      api.event_wait == nullptr) {
    window_->events_reason = "NVML has no event set API";
  } else if (const NvmlReturn rc = api.event_set_create(&window_->events); rc != kSuccess) {
    window_->events_reason = "nvmlEventSetCreate: " + api.describe(rc);
    window_->events = nullptr;
  } else {
    for (std::size_t i = 0; i < window_->handles.size(); ++i) {
      if (const NvmlReturn r =
              api.register_events(window_->handles[i], kEventXidCritical, window_->events);
          r != kSuccess)
        snap.gpus[i].sample.unread.push_back({"xid_events", api.describe(r)});
    }
  }
  if (!window_->events_reason.empty())
    snap.unread.push_back({"xid_events", window_->events_reason});
  return snap;
}

GpuSnapshot NvmlCounterSource::sample() { return read_all(nvml(soname_), Depth::cheap, nullptr); }

GpuSnapshot NvmlCounterSource::end() {
  const Nvml& api = nvml(soname_);
  std::vector<NvmlDevice> handles;
  GpuSnapshot snap = read_all(api, Depth::full, &handles);
  if (!snap.available || !window_) return snap;
  for (std::size_t i = 0; i < snap.gpus.size() && i < handles.size(); ++i)
    add_utilization(api, handles[i], window_->started_us, snap.gpus[i].processes,
                    snap.gpus[i].sample);
  if (window_->events != nullptr) {
    constexpr int kMaxEvents = 64;  // a storm of XIDs is one finding, not a long list
    for (int n = 0; n < kMaxEvents; ++n) {
      EventData data{};
      if (api.event_wait(window_->events, &data, 0) != kSuccess) break;  // timeout: none left
      for (std::size_t i = 0; i < snap.gpus.size() && i < handles.size(); ++i) {
        if (handles[i] != data.device) continue;
        const std::string xid = "xid " + std::to_string(data.event_data);
        auto& events = snap.gpus[i].sample.events;
        if (std::find(events.begin(), events.end(), xid) == events.end()) events.push_back(xid);
      }
    }
    if (api.event_set_free != nullptr) api.event_set_free(window_->events);
    window_->events = nullptr;
  }
  return snap;
}

}  // namespace fabricgate::counters
