#include "harness/fingerprint/gpu_section.hpp"

#include "harness/fingerprint/library_probe.hpp"
#include "harness/fingerprint/text_files.hpp"

namespace fabricgate::fingerprint {

namespace {

const char* remote_name(NvLinkRemote remote) {
  switch (remote) {
    case NvLinkRemote::gpu: return "gpu";
    case NvLinkRemote::nvswitch: return "nvswitch";
    case NvLinkRemote::other: return "other";
    case NvLinkRemote::unknown: break;
  }
  return "unknown";
}

json nvlink_json(const GpuRecord& gpu) {
  const auto active = static_cast<unsigned>(gpu.active_nvlinks.size());
  json out = {{"active_links", active}};
  const unsigned nvml_version = active > 0 ? gpu.active_nvlinks.front().nvml_version : 0;
  out["nvml_version"] = nvml_nvlink_version_name(nvml_version);
  const auto rate = active > 0 ? nvlink_rate(gpu.architecture, nvml_version) : std::nullopt;
  if (rate) {
    // P17: published per-link rate times active links, i.e. the vendor's aggregate.
    const double per_direction = rate->per_link_GBps_per_direction * active;
    out["generation"] = rate->generation;
    out["per_link_GBps_per_direction"] = rate->per_link_GBps_per_direction;
    out["aggregate_GBps_per_direction"] = per_direction;
    out["aggregate_GBps_bidirectional"] = 2.0 * per_direction;
    out["rate_source"] = rate->source;
  } else {
    out["generation"] = nullptr;
  }
  json links = json::array();
  for (const auto& link : gpu.active_nvlinks) {
    links.push_back({{"link", link.link},
                     {"remote", remote_name(link.remote)},
                     {"remote_pci_bus_id", link.remote_bus_id}});
  }
  out["links"] = std::move(links);
  return out;
}

json device_json(const GpuRecord& gpu, std::size_t index, const std::filesystem::path& root) {
  const auto pci_dir = under_root(root, "/sys/bus/pci/devices") / sysfs_pci_address(gpu.pci_bus_id);
  json numa = nullptr;  // sysfs says -1 on machines without NUMA information
  if (const auto text = read_trimmed(pci_dir / "numa_node"); text && !text->empty()) {
    try {
      const int node = std::stoi(*text);
      if (node >= 0) numa = node;
    } catch (const std::exception&) {
    }
  }
  const PcieLink& pcie = gpu.pcie;
  return {{"index", index},
          {"name", gpu.name},
          {"uuid", gpu.uuid},
          {"pci_bus_id", gpu.pci_bus_id},
          {"memory_bytes", gpu.memory_bytes},
          {"architecture", gpu.architecture},
          {"numa_node", numa},
          {"cpu_affinity", read_trimmed(pci_dir / "local_cpulist").value_or("")},
          {"pcie",
           {{"current_gen", pcie.current_gen},
            {"max_gen", pcie.max_gen},
            {"current_width", pcie.current_width},
            {"max_width", pcie.max_width},
            {"downtrained", pcie_downtrain_warning(gpu, index).has_value()}}},
          {"nvlink", nvlink_json(gpu)}};
}

}  // namespace

json gpu_section(const GpuInventory& inventory, const GpuTopology& topology,
                 const std::filesystem::path& root) {
  json devices = json::array();
  json notes = json::array();
  for (std::size_t i = 0; i < inventory.devices.size(); ++i) {
    devices.push_back(device_json(inventory.devices[i], i, root));
    if (auto warning = pcie_downtrain_warning(inventory.devices[i], i)) {
      notes.push_back({{"id", "P16"}, {"level", "warn"}, {"text", *warning}});
    }
  }
  return {{"available", inventory.available},
          {"reason", inventory.reason},
          {"driver_version", inventory.driver_version},
          {"cuda_driver_version", cuda_version_name(inventory.cuda_driver_version)},
          {"devices", std::move(devices)},
          {"topology",
           {{"label", topology.label},
            {"min_pair_nvlinks", topology.min_pair_nvlinks},
            {"matrix", topology.matrix},
            {"nvlinks", topology.nvlinks}}},
          {"problems", inventory.problems},
          {"notes", std::move(notes)}};
}

}  // namespace fabricgate::fingerprint
