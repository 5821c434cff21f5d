#include "harness/fingerprint/fi_info_parser.hpp"

#include <algorithm>
#include <array>
#include <sstream>

#include "harness/fingerprint/text_files.hpp"

namespace fabricgate::fingerprint {

namespace {

void add_distinct(std::vector<std::string>& values, const std::string& value) {
  if (!value.empty() && std::find(values.begin(), values.end(), value) == values.end()) {
    values.push_back(value);
  }
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() > suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

}  // namespace

std::vector<FiInfoEntry> parse_fi_info(std::string_view text) {
  std::vector<FiInfoEntry> entries;
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = trim(line.substr(0, colon));
    const std::string value = trim(line.substr(colon + 1));
    if (key == "provider") {
      entries.push_back(FiInfoEntry{});
      entries.back().provider = value;
      continue;
    }
    if (entries.empty()) continue;  // text before the first entry (warnings)
    FiInfoEntry& entry = entries.back();
    if (key == "fabric")
      entry.fabric = value;
    else if (key == "domain")
      entry.domain = value;
    else if (key == "version")
      entry.version = value;
    else if (key == "type")
      entry.type = value;
    else if (key == "protocol")
      entry.protocol = value;
  }
  return entries;
}

std::string device_of_domain(std::string_view domain) {
  for (const std::string_view suffix : {"-rdm", "-dgrm", "-dgram", "-xrc", "-msg"}) {
    if (ends_with(domain, suffix))
      return std::string(domain.substr(0, domain.size() - suffix.size()));
  }
  return std::string(domain);
}

std::string core_provider(std::string_view provider) {
  return trim(provider.substr(0, provider.find(';')));
}

bool is_rdma_provider(std::string_view provider) {
  static constexpr std::array<std::string_view, 7> kNotRdma = {"tcp", "udp", "net", "sockets",
                                                               "shm", "sm2", "lnx"};
  const std::string core = core_provider(provider);
  return !core.empty() && std::find(kNotRdma.begin(), kNotRdma.end(), core) == kNotRdma.end();
}

std::vector<FabricDevice> group_by_device(const std::vector<FiInfoEntry>& entries) {
  std::vector<FabricDevice> devices;
  for (const auto& entry : entries) {
    const std::string name = device_of_domain(entry.domain);
    const bool rdma = is_rdma_provider(entry.provider);
    // Keyed by device and kind: a NIC's verbs domain and a host's tcp "eth0" never merge.
    auto it = std::find_if(devices.begin(), devices.end(), [&](const FabricDevice& d) {
      return d.device == name && d.rdma == rdma;
    });
    if (it == devices.end()) {
      devices.push_back(FabricDevice{});
      it = devices.end() - 1;
      it->device = name;
      it->rdma = rdma;
    }
    add_distinct(it->providers, entry.provider);
    add_distinct(it->fabrics, entry.fabric);
    add_distinct(it->domains, entry.domain);
    add_distinct(it->endpoint_types, entry.type);
    ++it->entries;
  }
  return devices;
}

json fabric_devices_json(const std::vector<FabricDevice>& devices) {
  json list = json::array();
  unsigned rdma = 0;
  unsigned efa = 0;
  for (const auto& device : devices) {
    const bool is_efa = std::any_of(device.providers.begin(), device.providers.end(),
                                    [](const std::string& p) { return core_provider(p) == "efa"; });
    rdma += device.rdma ? 1U : 0U;
    efa += is_efa ? 1U : 0U;
    list.push_back({{"device", device.device},
                    {"rdma", device.rdma},
                    {"providers", device.providers},
                    {"fabrics", device.fabrics},
                    {"domains", device.domains},
                    {"endpoint_types", device.endpoint_types},
                    {"fi_info_entries", device.entries}});
  }
  return {{"device_count", devices.size()},
          {"rdma_device_count", rdma},
          {"efa_device_count", efa},
          {"devices", std::move(list)}};
}

}  // namespace fabricgate::fingerprint
