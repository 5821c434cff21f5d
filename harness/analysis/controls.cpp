#include "harness/analysis/controls.hpp"

#include <algorithm>

#include "core/errors.hpp"
#include "core/nccl_names.hpp"

namespace fabricgate::capture {
namespace {

template <std::size_t N>
std::string canonical_list(std::string_view list, const std::array<std::string_view, N>& known,
                           std::string_view what, std::string_view scenario) {
  std::string out;
  while (true) {
    const std::size_t comma = list.find(',');
    const std::string_view item = list.substr(0, comma);
    const auto hit = std::find_if(known.begin(), known.end(),
                                  [&](std::string_view k) { return iequals(k, item); });
    if (hit == known.end()) {
      std::string expected;
      for (auto k : known) expected += (expected.empty() ? "" : ", ") + std::string(k);
      throw InputError("control scenario '" + std::string(scenario) + "': unknown " +
                       std::string(what) + " '" + std::string(item) + "' (expected one of " +
                       expected + ")");
    }
    if (!out.empty()) out += ',';
    out += *hit;
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return out;
}

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = list.find(',', start);
    out.push_back(list.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::string list_of(const std::set<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

std::string net_kinds(const CaptureSummary& s) {
  std::set<std::string> nets;
  for (const auto& t : s.transports) {
    if (t.starts_with("NET/")) nets.insert(t);
  }
  return list_of(nets);
}

// Checks that the value NCCL logged for `var` (when it logged one) matches what the control set.
std::string env_mismatch(const ControlScenario& c, const CaptureSummary& s) {
  for (const auto& [var, value] : c.env) {
    const auto seen = s.env_overrides.find(var);
    if (seen != s.env_overrides.end() && seen->second != value)
      return var + " was " + seen->second + " in NCCL's log, the control set " + value;
  }
  return {};
}

ControlCheck verify_choice(const ControlScenario& c, const CaptureSummary& s,
                           const ChoiceSummary* choices, bool algo) {
  const std::string& wanted_list = c.env.front().second;
  const std::vector<std::string> wanted = split(wanted_list);
  CountMap seen;
  if (choices != nullptr && !choices->empty()) {
    seen = algo ? choices->algo : choices->proto;
  } else {
    for (const auto& t : s.tuning) {
      const std::string& v = algo ? t.algo : t.proto;
      if (!v.empty()) seen[v] += t.count;
    }
  }
  if (seen.empty())
    return {false, "cannot verify " + c.name + ": no per-collective " +
                       (algo ? "algorithm" : "protocol") +
                       " captured (profiler inactive and no TUNING lines)"};
  for (const auto& [value, n] : seen) {
    if (std::find(wanted.begin(), wanted.end(), value) == wanted.end())
      return {false, c.env.front().first + "=" + wanted_list + " but " + value + " was used in " +
                         std::to_string(n) + " collective(s)"};
  }
  return {true, c.env.front().first + "=" + wanted_list + " honoured"};
}

}  // namespace

ControlScenario control_scenario(std::string_view name) {
  if (name == "default") return {"default", {}, "NCCL's own choices (no control)"};
  if (name == "nvlink-off")
    return {"nvlink-off",
            {{"NCCL_P2P_DISABLE", "1"}},
            "P2P (NVLink/PCIe peer access) disabled: what NVLink contributes (P13)"};
  if (name == "nic-path")
    return {
        "nic-path",
        {{"NCCL_P2P_DISABLE", "1"}, {"NCCL_SHM_DISABLE", "1"}, {"FI_EFA_ENABLE_SHM_TRANSFER", "0"}},
        "P2P and SHM disabled so that traffic must cross the NIC (P14)"};
  if (name == "socket-only")
    return {"socket-only",
            {{"NCCL_NET", "Socket"}},
            "network forced to sockets: what IB/EFA contributes"};
  for (const bool algo : {true, false}) {
    const std::string_view family = algo ? "algo:" : "proto:";
    if (!name.starts_with(family)) continue;
    const std::string_view list = name.substr(family.size());
    const std::string canon = algo ? canonical_list(list, kNcclAlgos, "algorithm", name)
                                   : canonical_list(list, kNcclProtos, "protocol", name);
    return {std::string(family) + canon,
            {{algo ? "NCCL_ALGO" : "NCCL_PROTO", canon}},
            std::string(algo ? "algorithm" : "protocol") + " forced to " + canon};
  }
  std::string known;
  for (const auto& n : control_scenario_names()) known += (known.empty() ? "" : ", ") + n;
  throw InputError("unknown control scenario '" + std::string(name) + "' (expected one of " +
                   known + ")");
}

std::vector<std::string> control_scenario_names() {
  return {"default", "nvlink-off", "nic-path", "socket-only", "algo:<name>", "proto:<name>"};
}

ControlCheck verify_control(const ControlScenario& c, const CaptureSummary& s,
                            const ChoiceSummary* choices) {
  if (c.name == "default") return {true, "no control applied"};
  if (const std::string mismatch = env_mismatch(c, s); !mismatch.empty()) return {false, mismatch};
  if (c.name.starts_with("algo:")) return verify_choice(c, s, choices, true);
  if (c.name.starts_with("proto:")) return verify_choice(c, s, choices, false);

  if (c.name == "socket-only") {
    if (s.networks.empty())
      return {false, "NCCL_NET=Socket set but no \"Using network\" line was captured"};
    if (s.networks != std::set<std::string>{"Socket"})
      return {false, "NCCL_NET=Socket set but network was " + s.network()};
    const std::string nets = net_kinds(s);
    if (!nets.empty() && nets != "NET/Socket")
      return {false, "NCCL_NET=Socket set but transports include " + nets};
    // On one node NCCL never uses the network between its own GPUs: the control changed nothing
    // that was measured, and a reader comparing it with default must know that.
    if (nets.empty())
      return {true, "network is Socket, but no connection used the network (" +
                        list_of(s.transports) +
                        "): on one node this control measures nothing; it matters across nodes"};
    return {true, "network is Socket"};
  }

  if (s.transports.empty())
    return {false, "cannot verify " + c.name +
                       ": no transport lines captured (NCCL_DEBUG=INFO with "
                       "NCCL_DEBUG_SUBSYS including INIT is needed)"};
  const bool p2p = s.has_transport_prefix("P2P/");
  const bool shm = s.has_transport_prefix("SHM");
  const bool net = s.has_transport_prefix("NET/");
  if (c.name == "nvlink-off") {
    if (p2p)
      return {false, "NCCL_P2P_DISABLE=1 set but P2P transport still used (" +
                         list_of(s.transports) + ")"};
    if (shm) return {true, "P2P disabled; traffic went over SHM"};
    if (net) return {true, "P2P disabled; traffic went over " + net_kinds(s)};
    return {true, "P2P disabled; transports: " + list_of(s.transports)};
  }
  if (c.name == "nic-path") {
    if (p2p || shm)
      return {false, "P2P and SHM disabled but " + list_of(s.transports) + " still used"};
    if (!net) return {false, "P2P and SHM disabled but no NET transport seen"};
    return {true,
            "traffic went over " + net_kinds(s) + (s.gdrdma ? " with GDRDMA" : " without GDRDMA")};
  }
  return {false, "no verification known for control " + c.name};
}

}  // namespace fabricgate::capture
