#pragma once
// The hardware facts a roofline needs, read from a run's fingerprint (harness/fingerprint writes
// it, docs/FINGERPRINT.md): each GPU's PCIe link (trained and maximum generation and width,
// P16), its NVLink generation and active links (P17), the NVLink count between GPU pairs, and the
// RDMA NIC ports with their rates (P18). Read leniently: a section the fingerprint lacks is simply
// absent here, and the roofline then says "tier unknown" for the keys that needed it.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace fabricgate::roofline {

struct PcieLink {
  int current_gen = 0;
  int current_width = 0;
  int max_gen = 0;
  int max_width = 0;
  bool downtrained() const { return current_gen < max_gen || current_width < max_width; }
};

struct GpuFacts {
  int index = 0;
  std::string name;
  std::optional<PcieLink> pcie;
  std::optional<int> nvlink_generation;  // from the fingerprint, else from the architecture
  int nvlink_active_links = 0;
};

struct NicPort {
  std::string device;  // "mlx5_0"
  int port = 1;
  std::string state;     // "4: ACTIVE"
  double rate_Gbps = 0;  // decimal Gb/s per direction as sysfs says ("400 Gb/sec (4X NDR)")
  bool active() const { return state.find("ACTIVE") != std::string::npos; }
};

struct HardwareFacts {
  std::vector<GpuFacts> gpus;
  // NVLinks between GPU i and GPU j (the fingerprint's topology matrix); empty when not recorded.
  std::vector<std::vector<int>> pair_nvlinks;
  std::vector<NicPort> nics;
  std::string origin;  // "fingerprint" | "--hardware ..." for messages

  const GpuFacts* gpu(int index) const;
  int pair_links(int a, int b) const;  // 0 when unknown or not linked
  int max_nvlink_active_links() const;
};

// From a fingerprint document (run.json "fingerprint"); empty facts for a non-object.
HardwareFacts hardware_facts(const nlohmann::json& fingerprint);

// "400 Gb/sec (4X NDR)" -> 400; 0 when the text has no rate.
double parse_port_rate_Gbps(const std::string& text);

}  // namespace fabricgate::roofline
