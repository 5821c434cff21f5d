#include "harness/fingerprint/gpu_topology.hpp"

#include <algorithm>
#include <cctype>

namespace fabricgate::fingerprint {

namespace {

// The far end's GPU index, or nullopt when it is not one of our GPUs.
std::optional<std::size_t> gpu_index(const std::vector<std::string>& addresses,
                                     const std::string& remote) {
  const auto it = std::find(addresses.begin(), addresses.end(), sysfs_pci_address(remote));
  if (remote.empty() || it == addresses.end()) return std::nullopt;
  return static_cast<std::size_t>(it - addresses.begin());
}

}  // namespace

std::string sysfs_pci_address(std::string_view bus_id) {
  std::string out;
  for (const char c : bus_id) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const auto colon = out.find(':');
  if (colon != std::string::npos && colon > 4) out.erase(0, colon - 4);  // 8-digit NVML domain
  return out;
}

std::string ancestor_label(int level) {
  switch (level) {
    case 0: return "INT";   // NVML_TOPOLOGY_INTERNAL: two GPUs on one board
    case 10: return "PIX";  // NVML_TOPOLOGY_SINGLE
    case 20: return "PXB";  // NVML_TOPOLOGY_MULTIPLE
    case 30: return "PHB";  // NVML_TOPOLOGY_HOSTBRIDGE
    case 40: return "NODE";
    case 50: return "SYS";
    default: return "?";
  }
}

GpuTopology derive_topology(const GpuInventory& inventory) {
  GpuTopology topology;
  const std::size_t n = inventory.devices.size();
  std::vector<std::string> addresses;
  for (const auto& gpu : inventory.devices) addresses.push_back(sysfs_pci_address(gpu.pci_bus_id));

  topology.nvlinks.assign(n, std::vector<unsigned>(n, 0));
  std::vector<unsigned> switch_links(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    for (const auto& link : inventory.devices[i].active_nvlinks) {
      topology.any_active_nvlink = true;
      const auto peer = gpu_index(addresses, link.remote_bus_id);
      if (peer && *peer != i && link.remote != NvLinkRemote::nvswitch) {
        ++topology.nvlinks[i][*peer];
      } else if (link.remote == NvLinkRemote::nvswitch ||
                 (link.remote == NvLinkRemote::unknown && !peer)) {
        // Without the remote-type query, a far end that is none of our GPUs is a switch.
        ++switch_links[i];
      }
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (i != j) topology.nvlinks[i][j] += std::min(switch_links[i], switch_links[j]);
    }
  }

  topology.matrix.assign(n, std::vector<std::string>(n, "X"));
  unsigned min_links = n >= 2 ? ~0U : 0U;
  int farthest_pcie = -2;  // largest NVML level among pairs without NVLink
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      // A pair's count is the smaller direction (the two GPUs may see different link counts).
      const unsigned links = std::min(topology.nvlinks[i][j], topology.nvlinks[j][i]);
      min_links = std::min(min_links, links);
      int level = kTopologyUnknown;
      if (i < inventory.common_ancestor.size() && j < inventory.common_ancestor[i].size()) {
        level = inventory.common_ancestor[i][j];
      }
      if (links > 0) {
        topology.matrix[i][j] = "NV" + std::to_string(links);
      } else {
        topology.matrix[i][j] = ancestor_label(level);
        farthest_pcie = std::max(farthest_pcie, level);
      }
    }
  }
  topology.min_pair_nvlinks = min_links;
  if (n == 0) {
    topology.label = "";
  } else if (n == 1) {
    topology.label = "single";
  } else if (min_links > 0) {
    topology.label = "NV" + std::to_string(min_links);
  } else {
    topology.label = farthest_pcie >= 0 ? ancestor_label(farthest_pcie) : "PCIe";
  }
  return topology;
}

std::string nvml_nvlink_version_name(unsigned nvml_version) {
  switch (nvml_version) {
    case 1: return "1.0";
    case 2: return "2.0";
    case 3: return "2.2";
    case 4: return "3.0";
    case 5: return "3.1";
    case 6: return "4.0";
    case 7: return "5.0";
    case 8: return "6.0";
    default: return "";
  }
}

std::optional<NvLinkRate> nvlink_rate(unsigned architecture, unsigned nvml_version) {
  // Published per-link, per-direction rates by NVLink generation (GB/s, decimal).
  const auto by_generation = [](unsigned generation) -> double {
    switch (generation) {
      case 1: return 20.0;  // P100: 4 links, 80 GB/s per direction
      case 2: return 25.0;  // V100: 6 links, 150 GB/s per direction
      case 3: return 25.0;  // A100: 12 links, 300 GB/s per direction
      case 4: return 25.0;  // H100/H200: 18 links, 450 GB/s per direction
      case 5: return 50.0;  // B200: 18 links, 900 GB/s per direction
      default: return 0.0;
    }
  };
  // nvmlDeviceArchitecture_t -> NVLink generation.
  unsigned generation = 0;
  switch (architecture) {
    case 4: generation = 1; break;  // Pascal
    case 5:
    case 6: generation = 2; break;   // Volta, Turing (bridge)
    case 7: generation = 3; break;   // Ampere
    case 9: generation = 4; break;   // Hopper
    case 10: generation = 5; break;  // Blackwell
    default: break;
  }
  if (generation != 0) return NvLinkRate{generation, by_generation(generation), "architecture"};
  const std::string name = nvml_nvlink_version_name(nvml_version);
  if (name.empty()) return std::nullopt;
  generation = static_cast<unsigned>(name.front() - '0');
  const double rate = by_generation(generation);
  if (rate == 0.0) return std::nullopt;
  return NvLinkRate{generation, rate, "nvml_version"};
}

std::optional<std::string> pcie_downtrain_warning(const GpuRecord& gpu, std::size_t index) {
  const PcieLink& link = gpu.pcie;
  const bool gen_low =
      link.current_gen != 0 && link.max_gen != 0 && link.current_gen < link.max_gen;
  const bool width_low =
      link.current_width != 0 && link.max_width != 0 && link.current_width < link.max_width;
  if (!gen_low && !width_low) return std::nullopt;
  std::string text = "GPU " + std::to_string(index) + " (" + gpu.pci_bus_id +
                     "): PCIe link at Gen" + std::to_string(link.current_gen) + " x" +
                     std::to_string(link.current_width) + ", capable of Gen" +
                     std::to_string(link.max_gen) + " x" + std::to_string(link.max_width) +
                     ": host<->device copies are capped";
  if (!width_low) {
    text += " (an idle GPU may lower its link generation to save power: recheck under load)";
  }
  return text;
}

}  // namespace fabricgate::fingerprint
