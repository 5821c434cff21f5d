#pragma once
// Recorded NVML-like inventories of machines the fingerprint must describe correctly. The 2xH200
// one mirrors what NVML reported on the nvidia-h200-x2 test machine (data/h200x2_fingerprint.json):
// 18 active links per GPU, every far end an NVSwitch with bus id FFFFFFFF:FF:FF.0.
#include <string>

#include "harness/fingerprint/gpu_query.hpp"

namespace fabricgate::fingerprint::testing {

inline constexpr unsigned kHopper = 9;
inline constexpr unsigned kAmpere = 7;
inline constexpr unsigned kNvmlNvLink4 = 6;
inline constexpr int kSys = 50;
inline constexpr int kNode = 40;

inline std::string bus_id(unsigned bus) {
  const char hex[] = "0123456789ABCDEF";
  std::string b{hex[(bus >> 4) & 0xF], hex[bus & 0xF]};
  return "00000000:" + b + ":00.0";
}

inline GpuRecord gpu(const std::string& name, unsigned bus, unsigned architecture) {
  GpuRecord g;
  g.name = name;
  g.uuid = "GPU-" + std::to_string(bus);
  g.pci_bus_id = bus_id(bus);
  g.memory_bytes = 150754820096ULL;
  g.architecture = architecture;
  g.pcie = PcieLink{5, 5, 16, 16};
  return g;
}

inline void add_switch_links(GpuRecord& g, unsigned count) {
  for (unsigned link = 0; link < count; ++link) {
    g.active_nvlinks.push_back({link, kNvmlNvLink4, NvLinkRemote::nvswitch, "FFFFFFFF:FF:FF.0"});
  }
}

inline GpuInventory machine(unsigned count, const std::string& name, unsigned links_per_gpu,
                            int pcie_level, unsigned architecture = kHopper) {
  GpuInventory inv;
  inv.available = count > 0;
  inv.driver_version = "580.159.04";
  inv.cuda_driver_version = 13000;
  for (unsigned i = 0; i < count; ++i) {
    GpuRecord g = gpu(name, 0x06 + i, architecture);
    add_switch_links(g, links_per_gpu);
    inv.devices.push_back(g);
  }
  inv.common_ancestor.assign(count, std::vector<int>(count, pcie_level));
  return inv;
}

inline GpuInventory h200_x2() { return machine(2, "NVIDIA H200", 18, kSys); }
inline GpuInventory h100_x8() { return machine(8, "NVIDIA H100 80GB HBM3", 18, kSys); }
inline GpuInventory pcie_pair() { return machine(2, "NVIDIA L40S", 0, kSys, 8); }

}  // namespace fabricgate::fingerprint::testing
