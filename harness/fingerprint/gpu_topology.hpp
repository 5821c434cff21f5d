#pragma once
// Pure derivations from a GpuInventory: who is NVLinked to whom (nvidia-smi topo -m style), the
// published NVLink rate (P17), PCIe downtraining (P16). No NVML here, so all of it is unit-tested
// from recorded inventories.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/fingerprint/gpu_query.hpp"

namespace fabricgate::fingerprint {

// PCI address in sysfs spelling: NVML's "00000000:19:00.0" becomes "0000:19:00.0" (lower case,
// 4-digit domain), so NVML ids, NVLink remote ids and /sys/bus/pci/devices names compare equal.
std::string sysfs_pci_address(std::string_view bus_id);

// nvmlGpuTopologyLevel_t -> nvidia-smi's words: PIX (one PCIe switch), PXB (several switches),
// PHB (host bridge), NODE (same NUMA node), SYS (across the inter-socket link). "?" unknown.
std::string ancestor_label(int level);

struct GpuTopology {
  // nvlinks[i][j]: NVLinks usable between GPU i and j: direct GPU-GPU links, plus through NVSwitch
  // min(switch links of i, switch links of j) (an HGX board's 18 switch links make every pair
  // NV18).
  std::vector<std::vector<unsigned>> nvlinks;
  std::vector<std::vector<std::string>> matrix;  // "X" on the diagonal, "NV<n>" or a PCIe level
  unsigned min_pair_nvlinks = 0;                 // 0 when some pair has no NVLink (or < 2 GPUs)
  bool any_active_nvlink = false;
  // identity.gpu_topology: "NV<min>" when every pair is NVLinked, else the farthest PCIe level
  // ("SYS"), "single" for one GPU, "" for none.
  std::string label;
};

GpuTopology derive_topology(const GpuInventory& inventory);

// Published NVLink figures (P17): the per-link, per-direction rate whose sum is the vendor's
// aggregate (NVLink4: 25 GB/s x 18 links = 450 GB/s per direction, 900 GB/s both ways), never the
// signalling rate nvidia-smi prints per link (26.56 GB/s, which overshoots by 1/0.9412).
struct NvLinkRate {
  unsigned generation = 0;
  double per_link_GBps_per_direction = 0.0;
  std::string source;  // "architecture" or "nvml_version"
};

// From the GPU architecture when known (NVML has reported NVLink "5.0" on Hopper), else from the
// NVML link-version code. nullopt when neither is known.
std::optional<NvLinkRate> nvlink_rate(unsigned architecture, unsigned nvml_version);

// "4.0" for the NVML code 6, "" for unknown codes.
std::string nvml_nvlink_version_name(unsigned nvml_version);

// P16: text of the warning when the link runs below its generation or width, nullopt otherwise
// (and when NVML could not tell).
std::optional<std::string> pcie_downtrain_warning(const GpuRecord& gpu, std::size_t index);

}  // namespace fabricgate::fingerprint
