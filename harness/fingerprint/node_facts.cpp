#include "harness/fingerprint/node_facts.hpp"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "harness/fingerprint/gpu_topology.hpp"
#include "harness/fingerprint/host_facts.hpp"
#include "harness/fingerprint/library_probe.hpp"
#include "harness/fingerprint/nvml_gpu_query.hpp"
#include "harness/fingerprint/platform_key.hpp"
#include "harness/fingerprint/rdma_inventory.hpp"

namespace fabricgate::fingerprint {

namespace {

std::string gpu_models(const GpuInventory& gpus) {
  std::vector<std::string> names;
  for (const auto& g : gpus.devices) {
    if (std::find(names.begin(), names.end(), g.name) == names.end()) names.push_back(g.name);
  }
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : " + ") + n;
  return out;
}

// Port state and rate per RDMA port: a port that trained down or went DOWN shows here.
std::string nic_links(const RdmaInventory& rdma) {
  std::string out;
  for (const auto& d : rdma.devices) {
    for (const auto& p : d.ports) {
      out += (out.empty() ? "" : "; ") + d.name + "/" + std::to_string(p.number) + " " + p.state +
             " " + fmt::format("{:g}Gb/s", p.rate_Gbps) + " " + p.link_layer;
    }
  }
  return out;
}

}  // namespace

json collect_node_facts(const NodeFactsOptions& options) {
  const HostFacts host = read_host_facts(options.root);
  const NvmlGpuQuery nvml;
  const GpuInventory gpus =
      (options.gpu_query ? *options.gpu_query : static_cast<const GpuQuery&>(nvml)).query();
  const GpuTopology topology = derive_topology(gpus);
  const RdmaInventory rdma = read_rdma_inventory(options.root);
  std::string nics;
  for (const auto& d : rdma.devices) nics += (nics.empty() ? "" : ",") + d.name;
  const std::string key =
      derive_platform_key({gpus.devices.empty() ? "" : gpus.devices.front().name,
                           static_cast<unsigned>(gpus.devices.size()), topology.any_active_nvlink,
                           topology.min_pair_nvlinks, host.cpu_model, host.logical_cores});
  const std::string nccl = options.probe_libraries ? probe_nccl().version : "";
  const std::string cudart = options.probe_libraries ? probe_cuda_runtime().version : "";
  return {{"hostname", host.hostname},
          {"platform_key", key},
          {"facts",
           {{"driver", gpus.driver_version},
            {"cuda_driver", cuda_version_name(gpus.cuda_driver_version)},
            {"cuda_runtime", cudart},
            {"nccl", nccl},
            {"gpu_count", std::to_string(gpus.devices.size())},
            {"gpu_models", gpu_models(gpus)},
            {"nics", nics},
            {"nic_links", nic_links(rdma)},
            {"platform_key", key}}}};
}

bool apply_fact_overrides(json& node, int node_index, const std::string& spec) {
  if (spec.empty()) return false;
  const std::string origin = "FABRICGATE_TEST_NODE_FACT_OVERRIDE";
  const std::string expect =
      "\"<node index>:<fact>=<value>\" entries separated by commas, found \"" + spec + "\"";
  bool applied = false;
  std::stringstream in(spec);
  for (std::string item; std::getline(in, item, ',');) {
    const auto colon = item.find(':');
    const auto eq = item.find('=');
    if (colon == std::string::npos || eq == std::string::npos || eq < colon || colon == 0 ||
        eq == colon + 1) {
      throw InputError(origin, "", expect);
    }
    int index = -1;
    try {
      std::size_t used = 0;
      index = std::stoi(item.substr(0, colon), &used);
      if (used != colon) index = -1;
    } catch (const std::exception&) {
      index = -1;
    }
    if (index < 0) throw InputError(origin, "", expect);
    if (index != node_index) continue;
    const std::string fact = item.substr(colon + 1, eq - colon - 1);
    const std::string value = item.substr(eq + 1);
    node["facts"][fact] = value;
    node["test_override"] = node.value("test_override", std::string()) +
                            (node.contains("test_override") ? "," : "") + fact + "=" + value;
    applied = true;
  }
  return applied;
}

}  // namespace fabricgate::fingerprint
