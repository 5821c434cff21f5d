#pragma once
// What the fingerprint needs to know about the GPUs, as plain data, behind one narrow interface.
// The NVML implementation (nvml_gpu_query.hpp) fills it from the driver; tests and recorded
// machines fill it by hand (RecordedGpuQuery), so every derivation from it (topology matrix,
// PCIe downtraining, NVLink rates, platform key) is pure logic with unit tests.
#include <string>
#include <utility>
#include <vector>

namespace fabricgate::fingerprint {

// What the far end of one NVLink is (nvmlIntNvLinkDeviceType_t, reduced to what we use).
enum class NvLinkRemote { unknown, gpu, nvswitch, other };

struct NvLinkRecord {
  unsigned link = 0;          // link index on this GPU
  unsigned nvml_version = 0;  // nvmlNvlinkVersion_t code as NVML reported it (0 = unknown)
  NvLinkRemote remote = NvLinkRemote::unknown;
  std::string remote_bus_id;  // PCI bus id of the far end, NVML spelling ("00000000:19:00.0")
};

// 0 means "NVML could not say".
struct PcieLink {
  unsigned current_gen = 0;
  unsigned max_gen = 0;
  unsigned current_width = 0;
  unsigned max_width = 0;
};

struct GpuRecord {
  std::string name;        // "NVIDIA H200"
  std::string uuid;        // "GPU-…"
  std::string pci_bus_id;  // "00000000:19:00.0"
  unsigned long long memory_bytes = 0;
  unsigned architecture = 0;  // nvmlDeviceArchitecture_t (9 = Hopper, 10 = Blackwell), 0 unknown
  PcieLink pcie;
  std::vector<NvLinkRecord> active_nvlinks;  // only links NVML reports as enabled
};

// nvmlGpuTopologyLevel_t values, the common PCIe ancestor of two GPUs.
inline constexpr int kTopologyUnknown = -1;

struct GpuInventory {
  bool available = false;
  std::string reason;           // why nothing is known (NVML missing, init failed, no devices)
  std::string driver_version;   // "580.159.04"
  int cuda_driver_version = 0;  // nvmlSystemGetCudaDriverVersion code, e.g. 13000
  std::vector<GpuRecord> devices;
  // common_ancestor[i][j]: nvmlGpuTopologyLevel_t for i != j, kTopologyUnknown when not queried.
  std::vector<std::vector<int>> common_ancestor;
  std::vector<std::string> problems;  // queries that failed on an otherwise usable machine
};

class GpuQuery {
 public:
  virtual ~GpuQuery() = default;
  // Never throws for "no GPU here": returns available = false with the reason.
  virtual GpuInventory query() const = 0;
};

// Replays an inventory recorded earlier (tests; machines described by a file).
class RecordedGpuQuery final : public GpuQuery {
 public:
  explicit RecordedGpuQuery(GpuInventory inventory) : inventory_(std::move(inventory)) {}
  GpuInventory query() const override { return inventory_; }

 private:
  GpuInventory inventory_;
};

}  // namespace fabricgate::fingerprint
