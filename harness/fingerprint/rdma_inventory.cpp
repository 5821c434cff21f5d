#include "harness/fingerprint/rdma_inventory.hpp"

#include <algorithm>
#include <cstdlib>

#include "harness/fingerprint/text_files.hpp"

namespace fabricgate::fingerprint {

namespace {

std::vector<RdmaPort> read_ports(const std::filesystem::path& device_dir) {
  std::vector<RdmaPort> ports;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(device_dir / "ports", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    RdmaPort port;
    port.number = static_cast<unsigned>(std::strtoul(name.c_str(), nullptr, 10));
    port.state = port_state_name(read_trimmed(entry.path() / "state").value_or(""));
    port.rate = read_trimmed(entry.path() / "rate").value_or("");
    port.rate_Gbps = port_rate_Gbps(port.rate);
    port.link_layer = read_trimmed(entry.path() / "link_layer").value_or("");
    ports.push_back(std::move(port));
  }
  std::sort(ports.begin(), ports.end(),
            [](const RdmaPort& a, const RdmaPort& b) { return a.number < b.number; });
  return ports;
}

std::string driver_of(const std::filesystem::path& device_dir) {
  std::error_code ec;
  const auto target = std::filesystem::read_symlink(device_dir / "device" / "driver", ec);
  return ec ? std::string() : target.filename().string();
}

}  // namespace

unsigned RdmaDevice::active_ports() const {
  return static_cast<unsigned>(std::count_if(
      ports.begin(), ports.end(), [](const RdmaPort& port) { return port.state == "ACTIVE"; }));
}

std::string port_state_name(const std::string& sysfs_state) {
  const auto colon = sysfs_state.find(':');
  return colon == std::string::npos ? trim(sysfs_state) : trim(sysfs_state.substr(colon + 1));
}

double port_rate_Gbps(const std::string& sysfs_rate) {
  char* end = nullptr;
  const double value = std::strtod(sysfs_rate.c_str(), &end);
  return end == sysfs_rate.c_str() ? 0.0 : value;
}

RdmaInventory read_rdma_inventory(const std::filesystem::path& root) {
  RdmaInventory inventory;
  const auto dir = under_root(root, "/sys/class/infiniband");
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    inventory.reason = dir.string() + " does not exist (no RDMA driver loaded)";
    return inventory;
  }
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    RdmaDevice device;
    device.name = entry.path().filename().string();
    device.driver = driver_of(entry.path());
    device.ports = read_ports(entry.path());
    inventory.devices.push_back(std::move(device));
  }
  std::sort(inventory.devices.begin(), inventory.devices.end(),
            [](const RdmaDevice& a, const RdmaDevice& b) { return a.name < b.name; });
  inventory.available = !inventory.devices.empty();
  if (!inventory.available) inventory.reason = dir.string() + " is empty (no RDMA device)";
  return inventory;
}

json to_json(const RdmaInventory& inventory) {
  json devices = json::array();
  for (const auto& device : inventory.devices) {
    json ports = json::array();
    for (const auto& port : device.ports) {
      ports.push_back({{"port", port.number},
                       {"state", port.state},
                       {"rate", port.rate},
                       {"rate_Gbps", port.rate_Gbps},
                       {"link_layer", port.link_layer}});
    }
    devices.push_back({{"name", device.name},
                       {"driver", device.driver},
                       {"active_ports", device.active_ports()},
                       {"ports", std::move(ports)}});
  }
  return {{"available", inventory.available},
          {"reason", inventory.reason},
          {"device_count", inventory.devices.size()},
          {"devices", std::move(devices)}};
}

}  // namespace fabricgate::fingerprint
