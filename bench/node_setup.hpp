#pragma once
// Nodes of the job: k, g and each node's compact fingerprint. Real nodes are the
// hosts; emulated nodes ("emulate_nodes": k in the suite, or --emulate-nodes) split one host's
// ranks into k groups (rank r -> node r / (n/k)) and give each group its own NCCL_HOSTID, so NCCL
// connects them through its network transport (NET/Socket without RDMA NICs) as if they were
// hosts apart, and node detection and pair tests see the same split.
#include <string>

#include <nlohmann/json.hpp>

#include "bench/backends/mpi/mpi_communicator.hpp"
#include "bench/engine/node_layout.hpp"
#include "core/records_header.hpp"

namespace fabricgate::bench {

// Collective. `emulate` > 0 applies emulation first (InputError unless nranks is a multiple of
// it) and sets NCCL_HOSTID=<hostname>-node<j> in this process's environment: call it before NCCL
// initialises. The GPU must already be chosen from the host's real local rank.
NodeLayout set_up_nodes(MpiCommunicator& comm, int emulate);

// Collective. One rank per node (its representative) collects the node's facts
// (harness/fingerprint/node_facts.hpp) and rank 0 gathers them: an array, one object per node,
// on rank 0; null elsewhere. FABRICGATE_TEST_NODE_FACT_OVERRIDE replaces facts (tests).
nlohmann::json gather_node_facts(Communicator& comm, const NodeLayout& layout);

// Sets the header fields that describe the node layout: nodes, ranks_per_node(_max),
// gpus_per_node, nodes_emulated.
void set_node_layout(RecordsHeader& header, const NodeLayout& layout, int gpus_per_process,
                     int visible_gpus);

}  // namespace fabricgate::bench
