#include "harness/counters/rdma_counters.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>

#include "harness/counters/sysfs_value.hpp"
#include "harness/fingerprint/rdma_inventory.hpp"
#include "harness/fingerprint/text_files.hpp"

namespace fabricgate::counters {

namespace fs = std::filesystem;

namespace {

// Files of hw_counters that are not counters.
bool is_metadata(const std::string& name) { return name == "lifespan"; }

std::vector<fs::path> sorted_entries(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

void read_dir(const fs::path& dir, bool saturating, DeviceSample& s) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return;
  for (const fs::path& file : sorted_entries(dir)) {
    const std::string name = file.filename().string();
    if (is_metadata(name) || fs::is_directory(file, ec)) continue;
    const auto value = read_counter_file(file);
    if (const auto* reason = std::get_if<std::string>(&value)) {
      s.unread.push_back({name, *reason});
      continue;
    }
    const std::uint64_t v = std::get<std::uint64_t>(value);
    // hw_counters: 32 bits wide while both readings fit (mlx5 Q counters wrap at 2^32; a 64-bit
    // counter that passed 2^32 is read as 64-bit and can only go back by a reset).
    s.counters[name] = saturating ? RawCounter{v, Overflow::saturates, port_counter_bits(name)}
                                  : RawCounter{v, Overflow::wraps, v > 0xffffffffULL ? 64U : 32U};
  }
}

}  // namespace

unsigned port_counter_bits(const std::string& name) {
  static const std::map<std::string, unsigned> widths = {
      {"symbol_error", 16},
      {"link_error_recovery", 8},
      {"link_downed", 8},
      {"port_rcv_errors", 16},
      {"port_rcv_remote_physical_errors", 16},
      {"port_rcv_switch_relay_errors", 16},
      {"port_xmit_discards", 16},
      {"port_xmit_constraint_errors", 8},
      {"port_rcv_constraint_errors", 8},
      {"local_link_integrity_errors", 4},
      {"excessive_buffer_overrun_errors", 4},
      {"VL15_dropped", 16},
      {"port_xmit_wait", 32},
  };
  const auto it = widths.find(name);
  return it == widths.end() ? 64U : it->second;
}

RdmaSamples read_rdma_samples(const fs::path& root) {
  RdmaSamples out;
  const fs::path dir = fingerprint::under_root(root, "/sys/class/infiniband");
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    out.unread.push_back({"rdma", dir.string() + " does not exist (no RDMA driver loaded)"});
    return out;
  }
  for (const fs::path& device_dir : sorted_entries(dir)) {
    const std::string device = device_dir.filename().string();
    const auto driver_link = fs::read_symlink(device_dir / "device" / "driver", ec);
    const std::string driver = ec ? std::string() : driver_link.filename().string();
    if (fs::is_directory(device_dir / "hw_counters", ec)) {  // EFA's device-level counters
      DeviceSample s{"rdma", device, 0, driver, {}, {}, {}, {}};
      read_dir(device_dir / "hw_counters", false, s);
      out.ports.push_back(std::move(s));
    }
    for (const fs::path& port_dir : sorted_entries(device_dir / "ports")) {
      const std::string number = port_dir.filename().string();
      if (number.empty() || number.find_first_not_of("0123456789") != std::string::npos) continue;
      DeviceSample s;
      s.kind = "rdma";
      s.device = device;
      s.port = static_cast<unsigned>(std::strtoul(number.c_str(), nullptr, 10));
      const std::string layer = fingerprint::read_trimmed(port_dir / "link_layer").value_or("");
      s.identity = driver.empty() ? layer : layer.empty() ? driver : driver + ", " + layer;
      // "4: ACTIVE": the code is the gauge; a port that leaves 4 during a launch went down.
      const std::string state = fingerprint::read_trimmed(port_dir / "state").value_or("");
      if (!state.empty() && std::isdigit(static_cast<unsigned char>(state.front())))
        s.gauges["state_code"] = std::strtod(state.c_str(), nullptr);
      const std::string rate = fingerprint::read_trimmed(port_dir / "rate").value_or("");
      if (!rate.empty()) s.gauges["rate_Gbps"] = fingerprint::port_rate_Gbps(rate);
      read_dir(port_dir / "counters", true, s);
      read_dir(port_dir / "hw_counters", false, s);
      out.ports.push_back(std::move(s));
    }
  }
  if (out.ports.empty()) out.unread.push_back({"rdma", dir.string() + " has no device"});
  return out;
}

}  // namespace fabricgate::counters
