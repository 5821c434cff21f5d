#pragma once
// The "gpus" section of the fingerprint document, from an inventory plus the PCI NUMA facts in
// sysfs (the driver does not say which NUMA node a GPU hangs off; the kernel does).
#include <filesystem>

#include "core/json_file.hpp"
#include "harness/fingerprint/gpu_query.hpp"
#include "harness/fingerprint/gpu_topology.hpp"

namespace fabricgate::fingerprint {

// {"available", "reason", "driver_version", "cuda_driver_version", "devices": [...],
//  "topology": {...}, "problems": [...], "notes": [{"id": "P16", "level": "warn", ...}]}.
// `root` is the filesystem root for /sys/bus/pci/devices/<address>/{numa_node,local_cpulist}.
json gpu_section(const GpuInventory& inventory, const GpuTopology& topology,
                 const std::filesystem::path& root);

}  // namespace fabricgate::fingerprint
