#pragma once
// What the hardware should do for one key: the link tier that bounds it and that tier's published
// per-direction figure (core/spec_table.hpp, P07/P16/P17), in the direction the key measures.
//   host copies (family hostcopy): the GPU's PCIe link at its maximum generation and width;
//     bidirectional copies against both directions;
//   GPU pairs (family p2p, op copy): the NVLinks between the pair, else the slower PCIe link;
//   collectives on one node (family coll): busbw against the NVLink aggregate the GPUs share
//     (the fewest links over the pairs), else PCIe;
//   collectives across nodes: the per-accelerator inter-node rate busbw*(k-1)/(n-1) (P12,
//     hierarchical algorithms) against the NIC rate per GPU (active NIC ports x rate / GPUs);
//   RDMA (family rdma): the NIC port's line rate.
// Where the tier cannot be known (no fingerprint, no GPU section, emulated nodes, a local copy
// bounded by HBM which the table does not list) `unknown` says why. Results that cannot be
// physical (NVLS, CollNet, or busbw above 100 % of the tier) carry `not_physical` and are never
// judged (P10).
#include <optional>
#include <string>
#include <vector>

#include "core/benchmark_result.hpp"
#include "harness/roofline/hardware_facts.hpp"
#include "harness/roofline/policy.hpp"

namespace fabricgate::roofline {

// The run-level facts a ceiling depends on besides the key itself.
struct RunShape {
  int nodes = 1;
  bool nodes_emulated = false;
  int gpus_per_node = 0;  // 0: not recorded (the fingerprint's GPU count is used)
  std::string network;    // NCCL's network as captured ("IB", "Socket", a plugin, "")
  bool gdrdma = false;
};

struct Ceiling {
  std::string tier;  // a known_tiers() name; "" when unknown
  std::string spec;  // "PCIe Gen5 x16", "NVLink4x18", "2 x 400 Gb/s NIC per GPU"
  Direction direction = Direction::unidirectional;
  double GBps = 0;                  // in `direction` (both directions summed for bidirectional)
  std::string metric;               // "algbw", "busbw", "per-accelerator inter-node rate"
  double measured_GBps = 0;         // the figure compared with GBps
  std::string unknown;              // non-empty: "tier unknown: <why>"
  std::string not_physical;         // non-empty: why this figure is not judged (P10)
  std::vector<std::string> causes;  // facts that would explain a result below the floor
};

// nullopt for keys the roofline does not describe: latency measurements, results not ok, keys
// without a bandwidth figure.
std::optional<Ceiling> ceiling_for(const BenchmarkResult& r, const HardwareFacts& hw,
                                   const RunShape& shape);

}  // namespace fabricgate::roofline
