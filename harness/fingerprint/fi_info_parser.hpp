#pragma once
// libfabric's view of the NICs, parsed from `fi_info` text output (no libfabric headers needed).
// P18: fi_info lists one entry per provider x fabric x domain x endpoint type, so an EFA device
// shows up twice (fabric "efa" and "efa-direct", or domains "<dev>-rdm" and "<dev>-dgrm"). The
// entries are grouped per device so that each NIC counts once.
#include <string>
#include <string_view>
#include <vector>

#include "core/json_file.hpp"

namespace fabricgate::fingerprint {

struct FiInfoEntry {
  std::string provider;  // "efa", "verbs;ofi_rxm", "tcp;ofi_rxm"
  std::string fabric;
  std::string domain;
  std::string version;
  std::string type;  // FI_EP_RDM, FI_EP_DGRAM, FI_EP_MSG
  std::string protocol;
};

// Parses the default `fi_info` output ("provider: x" starts an entry, indented "key: value"
// lines follow). Unknown keys are ignored; text without entries gives an empty vector.
std::vector<FiInfoEntry> parse_fi_info(std::string_view text);

struct FabricDevice {
  std::string device;                  // "rdmap16s27", "mlx5_0", "eth0"
  std::vector<std::string> providers;  // distinct, in order of appearance
  std::vector<std::string> fabrics;
  std::vector<std::string> domains;
  std::vector<std::string> endpoint_types;
  bool rdma = false;     // provider is not a sockets/shared-memory one
  unsigned entries = 0;  // fi_info lines that named this device
};

// The device behind a domain name: "rdmap16s27-rdm" / "rdmap16s27-dgrm" -> "rdmap16s27",
// "mlx5_0-xrc" -> "mlx5_0".
std::string device_of_domain(std::string_view domain);
// "verbs;ofi_rxm" -> "verbs" (the core provider comes first in a layered name).
std::string core_provider(std::string_view provider);
// tcp, udp, net, sockets, shm, sm2: reachable by fi_info on any host, not RDMA hardware.
bool is_rdma_provider(std::string_view provider);

std::vector<FabricDevice> group_by_device(const std::vector<FiInfoEntry>& entries);

// {"device_count", "rdma_device_count", "efa_device_count", "devices": [...]}.
json fabric_devices_json(const std::vector<FabricDevice>& devices);

}  // namespace fabricgate::fingerprint
