#include "bench/node_setup.hpp"

#include <unistd.h>

#include <cstdlib>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "harness/fingerprint/node_facts.hpp"

namespace fabricgate::bench {

namespace {

std::string this_hostname() {
  char buf[256] = {0};
  gethostname(buf, sizeof buf - 1);
  return buf;
}

}  // namespace

NodeLayout set_up_nodes(MpiCommunicator& comm, int emulate) {
  std::string name = this_hostname();
  if (emulate > 0) {
    if (!comm.emulate_nodes(emulate)) {
      throw InputError(
          "emulate_nodes (suite field or --emulate-nodes): expected a node count that divides the "
          "rank "
          "count (" +
          std::to_string(comm.size()) + " ranks), found " + std::to_string(emulate));
    }
    name += "-node" + std::to_string(emulated_node_of(comm.rank(), comm.size(), emulate));
    // NCCL hashes NCCL_HOSTID instead of the host name: ranks with different ids never use
    // P2P/SHM between them. Overwritten on purpose: emulation without it would measure NVLink.
    setenv("NCCL_HOSTID", name.c_str(), 1);
  }
  if (emulate > 0) return discover_nodes(comm, name, true);
  // Host names can repeat: containers that all call themselves "localhost", network namespaces
  // sharing one UTS name. MPI's shared-memory groups are the truth; when they outnumber the
  // distinct names, every node's name gets its lowest rank ("vm-rank2") so no two nodes merge.
  NodeLayout layout = discover_nodes(comm, name, false);
  if (layout.nodes() != comm.node_count()) {
    layout = discover_nodes(comm, name + "-rank" + std::to_string(comm.node_leader()), false);
  }
  return layout;
}

nlohmann::json gather_node_facts(Communicator& comm, const NodeLayout& layout) {
  const int node = layout.node_of_rank[static_cast<std::size_t>(comm.rank())];
  std::string mine;
  std::string error;
  if (layout.leader[static_cast<std::size_t>(node)] == comm.rank()) {
    nlohmann::json facts = fingerprint::collect_node_facts({});
    facts["name"] = layout.names[static_cast<std::size_t>(node)];
    facts["index"] = node;
    facts["emulated"] = layout.emulated;
    nlohmann::json ranks = nlohmann::json::array();
    for (std::size_t r = 0; r < layout.node_of_rank.size(); ++r) {
      if (layout.node_of_rank[r] == node) ranks.push_back(r);
    }
    facts["ranks"] = std::move(ranks);
    const char* spec = std::getenv("FABRICGATE_TEST_NODE_FACT_OVERRIDE");
    try {
      fingerprint::apply_fact_overrides(facts, node, spec ? spec : "");
    } catch (const InputError& e) {
      error = e.what();
    }
    mine = facts.dump();
  }
  // Every rank learns whether a leader failed, so all of them stop alike.
  for (const std::string& e : comm.all_gather(error)) {
    if (!e.empty()) throw InputError(e);
  }
  const std::vector<std::string> all = comm.gather(mine, 0);
  if (all.empty()) return nullptr;
  nlohmann::json nodes = nlohmann::json::array();
  for (const std::string& s : all) {
    if (!s.empty()) nodes.push_back(parse_json_text(s, "node facts of another rank"));
  }
  return nodes;
}

void set_node_layout(RecordsHeader& header, const NodeLayout& layout, int gpus_per_process,
                     int visible_gpus) {
  const int g = layout.ranks_per_node_min;
  header.nodes = layout.nodes();
  header.ranks_per_node = g;
  header.ranks_per_node_max = layout.ranks_per_node_max;
  header.gpus_per_node = visible_gpus > 0 ? g * gpus_per_process : 0;
  header.nodes_emulated = layout.emulated;
}

}  // namespace fabricgate::bench
