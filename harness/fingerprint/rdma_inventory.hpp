#pragma once
// ibverbs devices as the kernel lists them in /sys/class/infiniband/<dev> (no libibverbs needed):
// ports with state, rate and link layer, and the kernel driver behind each device. P18: this
// list also holds adapters unrelated to the GPU fabric, so each device carries its driver
// (efa, mlx5_core, irdma, ...) and active-port count for the reader to judge.
#include <filesystem>
#include <string>
#include <vector>

#include "core/json_file.hpp"

namespace fabricgate::fingerprint {

struct RdmaPort {
  unsigned number = 0;
  std::string state;       // "ACTIVE", "DOWN", ... (sysfs "4: ACTIVE" without the code)
  std::string rate;        // "400 Gb/sec (4X NDR)"
  double rate_Gbps = 0.0;  // 400 (decimal Gb/s, as sysfs prints it)
  std::string link_layer;  // "InfiniBand", "Ethernet", "Unspecified" (EFA)
};

struct RdmaDevice {
  std::string name;    // "mlx5_0", "rdmap16s27"
  std::string driver;  // "mlx5_core", "efa"; "" when the symlink is missing
  std::vector<RdmaPort> ports;
  unsigned active_ports() const;
};

struct RdmaInventory {
  bool available = false;  // at least one device
  std::string reason;
  std::vector<RdmaDevice> devices;  // sorted by name
};

// Reads <root>/sys/class/infiniband. Never throws.
RdmaInventory read_rdma_inventory(const std::filesystem::path& root);
json to_json(const RdmaInventory& inventory);

// "4: ACTIVE" -> "ACTIVE"; "400 Gb/sec (4X NDR)" -> 400.
std::string port_state_name(const std::string& sysfs_state);
double port_rate_Gbps(const std::string& sysfs_rate);

}  // namespace fabricgate::fingerprint
