#include "harness/fingerprint/rdma_section.hpp"

#include <algorithm>
#include <set>

#include "harness/fingerprint/subprocess.hpp"

namespace fabricgate::fingerprint {

FiInfoOutcome run_fi_info(const std::string& program, std::chrono::milliseconds timeout) {
  FiInfoOutcome outcome;
  outcome.program = program;
  if (program.empty()) {
    outcome.reason = "fi_info probe switched off";
    return outcome;
  }
  const ProgramResult result = run_program({program}, 4 * 1024 * 1024, timeout);
  if (!result.succeeded()) {
    // Includes "not installed" and libfabric's "fi_getinfo: -61 (No data available)".
    outcome.reason = result.failure_text(program);
    return outcome;
  }
  outcome.ran = true;
  outcome.entries = parse_fi_info(result.out);
  if (result.truncated) outcome.reason = program + " output truncated at 4 MiB";
  if (outcome.entries.empty()) outcome.reason = program + " listed no provider";
  return outcome;
}

json rdma_section(const RdmaInventory& verbs, const FiInfoOutcome& fi_info) {
  const auto devices = group_by_device(fi_info.entries);
  json libfabric = fabric_devices_json(devices);
  libfabric["available"] = fi_info.ran && !fi_info.entries.empty();
  libfabric["reason"] = fi_info.reason;
  libfabric["program"] = fi_info.program;
  libfabric["fi_info_entries"] = fi_info.entries.size();

  std::set<std::string> counted;  // one name per NIC, whichever view saw it
  for (const auto& device : verbs.devices) {
    if (device.active_ports() > 0) counted.insert(device.name);
  }
  for (const auto& device : devices) {
    if (device.rdma) counted.insert(device.device);
  }

  json notes = json::array();
  const std::size_t inactive =
      verbs.devices.size() - static_cast<std::size_t>(std::count_if(
                                 verbs.devices.begin(), verbs.devices.end(),
                                 [](const RdmaDevice& d) { return d.active_ports() > 0; }));
  if (inactive > 0) {
    notes.push_back(
        {{"id", "P18"},
         {"level", "note"},
         {"text", std::to_string(inactive) + " of " + std::to_string(verbs.devices.size()) +
                      " /sys/class/infiniband devices have no ACTIVE port and are "
                      "not counted"}});
  }
  const unsigned efa = libfabric["efa_device_count"].get<unsigned>();
  if (efa > 0) {
    notes.push_back({{"id", "P18"},
                     {"level", "note"},
                     {"text", "fi_info lists EFA devices once per provider/fabric; counted " +
                                  std::to_string(efa) + " EFA device(s), not per line"}});
  }
  return {{"ibverbs", to_json(verbs)},
          {"libfabric", std::move(libfabric)},
          {"rdma_devices", counted},
          {"rdma_device_count", counted.size()},
          {"notes", std::move(notes)}};
}

}  // namespace fabricgate::fingerprint
