#pragma once
// The "rdma" section: the kernel's ibverbs devices (sysfs) and libfabric's domains (fi_info),
// reconciled into one device count for identity.rdma_devices (P18: a device counts once however
// many providers list it; a sysfs adapter counts only with an active port).
#include <chrono>
#include <string>
#include <vector>

#include "core/json_file.hpp"
#include "harness/fingerprint/fi_info_parser.hpp"
#include "harness/fingerprint/rdma_inventory.hpp"

namespace fabricgate::fingerprint {

struct FiInfoOutcome {
  bool ran = false;    // fi_info started and exited 0
  std::string reason;  // why there are no entries
  std::string program;
  std::vector<FiInfoEntry> entries;
};

// Runs `program` (no arguments: every provider, domain and endpoint type) with a 4 MiB output cap.
FiInfoOutcome run_fi_info(const std::string& program, std::chrono::milliseconds timeout);

// {"ibverbs": {...}, "libfabric": {...}, "rdma_devices": [names], "rdma_device_count": n,
//  "notes": [...]}.
json rdma_section(const RdmaInventory& verbs, const FiInfoOutcome& fi_info);

}  // namespace fabricgate::fingerprint
