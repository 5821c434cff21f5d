#include "harness/roofline/ceiling.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/spec_table.hpp"

namespace fabricgate::roofline {

namespace {

int int_param(const BenchmarkResult& r, const char* name, int fallback) {
  const auto it = r.params.find(name);
  return it != r.params.end() && it->is_number_integer() ? it->get<int>() : fallback;
}

std::string text_param(const BenchmarkResult& r, const char* name) {
  const auto it = r.params.find(name);
  return it != r.params.end() && it->is_string() ? it->get<std::string>() : "";
}

Ceiling unknown(std::string why) {
  Ceiling c;
  c.unknown = "tier unknown: " + std::move(why);
  return c;
}

std::string link_text(int gen, int width) { return fmt::format("Gen{} x{}", gen, width); }

// P16: a link trained below its maximum caps copies; named as a likely cause.
void pcie_causes(const GpuFacts& g, std::vector<std::string>& causes) {
  if (g.pcie && g.pcie->downtrained()) {
    causes.push_back(fmt::format("GPU {}'s PCIe link trained at {}, below its maximum {} (P16)",
                                 g.index, link_text(g.pcie->current_gen, g.pcie->current_width),
                                 link_text(g.pcie->max_gen, g.pcie->max_width)));
  }
}

// P17: fewer active NVLinks than the generation's complement.
void nvlink_causes(const GpuFacts& g, std::vector<std::string>& causes) {
  if (!g.nvlink_generation) return;
  const auto full = nvlink_full_links(*g.nvlink_generation);
  if (full && g.nvlink_active_links > 0 && g.nvlink_active_links < *full) {
    causes.push_back(fmt::format("GPU {} has {} of the {} NVLink{} links active (P17)", g.index,
                                 g.nvlink_active_links, *full, *g.nvlink_generation));
  }
}

// The PCIe figure a GPU's link was built for (its maximum), with the trained one as a cause.
std::optional<LinkSpec> pcie_of(const GpuFacts& g) {
  if (!g.pcie) return std::nullopt;
  return pcie_spec(g.pcie->max_gen, g.pcie->max_width);
}

Ceiling with_spec(const std::string& tier, const LinkSpec& spec, Direction d) {
  Ceiling c;
  c.tier = tier;
  c.spec = spec.name;
  c.direction = d;
  c.GBps = spec.GBps(d == Direction::bidirectional ? SpecDirection::bidirectional
                                                   : SpecDirection::unidirectional);
  return c;
}

Ceiling host_copy(const BenchmarkResult& r, const HardwareFacts& hw) {
  const int index = int_param(r, "gpu", 0);
  const GpuFacts* g = hw.gpu(index);
  if (g == nullptr) return unknown(fmt::format("the fingerprint lists no GPU {}", index));
  const auto spec = pcie_of(*g);
  if (!spec) return unknown(fmt::format("the fingerprint has no PCIe link for GPU {}", index));
  const bool pinned = text_param(r, "memory") != "pageable";
  const bool both = text_param(r, "direction") == "bi" || text_param(r, "mode") == "bi";
  Ceiling c = with_spec(pinned ? "pcie-host-copy" : "pcie-host-copy-pageable", *spec,
                        both ? Direction::bidirectional : Direction::unidirectional);
  c.metric = "algbw";
  c.measured_GBps = r.algbw_GBps;
  pcie_causes(*g, c.causes);
  return c;
}

Ceiling pair_copy(const BenchmarkResult& r, const HardwareFacts& hw) {
  const int src = int_param(r, "src", -1);
  const int dst = int_param(r, "dst", -1);
  if (src == dst) return unknown("a copy within one GPU is bounded by its memory, not a link");
  const GpuFacts* a = hw.gpu(src);
  const GpuFacts* b = hw.gpu(dst);
  if (a == nullptr || b == nullptr)
    return unknown(fmt::format("the fingerprint lists no GPU {}", a == nullptr ? src : dst));
  const Direction d =
      text_param(r, "mode") == "bi" ? Direction::bidirectional : Direction::unidirectional;
  Ceiling c;
  const int links = hw.pair_links(src, dst);
  if (links > 0 && a->nvlink_generation) {
    const auto spec = nvlink_spec(*a->nvlink_generation, links);
    if (!spec)
      return unknown(
          fmt::format("NVLink generation {} is not in the spec table", *a->nvlink_generation));
    c = with_spec("nvlink-pair-copy", *spec, d);
    nvlink_causes(*a, c.causes);
    nvlink_causes(*b, c.causes);
  } else {
    const auto sa = pcie_of(*a);
    const auto sb = pcie_of(*b);
    if (!sa || !sb) return unknown("no NVLink between the pair and no PCIe link recorded");
    c = with_spec("pcie-pair-copy", sa->per_direction_GBps <= sb->per_direction_GBps ? *sa : *sb,
                  d);
    pcie_causes(*a, c.causes);
    pcie_causes(*b, c.causes);
  }
  c.metric = "algbw";
  c.measured_GBps = r.algbw_GBps;
  return c;
}

bool uses(const Choice& choice, const std::string& prefix) {
  return std::any_of(choice.algo.begin(), choice.algo.end(),
                     [&](const auto& a) { return a.first.rfind(prefix, 0) == 0; });
}

Ceiling intra_node_collective(const BenchmarkResult& r, const HardwareFacts& hw) {
  if (hw.gpus.size() < 2) return unknown("the fingerprint lists fewer than two GPUs");
  int fewest_links = -1;
  for (std::size_t i = 0; i < hw.gpus.size(); ++i) {
    for (std::size_t j = i + 1; j < hw.gpus.size(); ++j) {
      const int links = hw.pair_links(hw.gpus[i].index, hw.gpus[j].index);
      fewest_links = fewest_links < 0 ? links : std::min(fewest_links, links);
    }
  }
  Ceiling c;
  const GpuFacts& first = hw.gpus.front();
  if (fewest_links > 0 && first.nvlink_generation) {
    const auto spec = nvlink_spec(*first.nvlink_generation, fewest_links);
    if (!spec) return unknown("the NVLink generation is not in the spec table");
    c = with_spec("nvlink-collective", *spec, Direction::unidirectional);
    for (const GpuFacts& g : hw.gpus) nvlink_causes(g, c.causes);
  } else {
    std::optional<LinkSpec> slowest;
    for (const GpuFacts& g : hw.gpus) {
      const auto s = pcie_of(g);
      if (!s)
        return unknown(fmt::format("no NVLink and no PCIe link recorded for GPU {}", g.index));
      if (!slowest || s->per_direction_GBps < slowest->per_direction_GBps) slowest = s;
    }
    c = with_spec("pcie-collective", *slowest, Direction::unidirectional);
    for (const GpuFacts& g : hw.gpus) pcie_causes(g, c.causes);
  }
  c.metric = "busbw";
  c.measured_GBps = *r.busbw_GBps;
  return c;
}

Ceiling inter_node_collective(const BenchmarkResult& r, const HardwareFacts& hw,
                              const RunShape& shape) {
  int active = 0;
  double rate_Gbps = 0;
  for (const NicPort& p : hw.nics) {
    if (!p.active() || p.rate_Gbps <= 0) continue;
    ++active;
    rate_Gbps = rate_Gbps == 0 ? p.rate_Gbps : std::min(rate_Gbps, p.rate_Gbps);
  }
  if (active == 0) return unknown("the fingerprint lists no active RDMA NIC port");
  const int gpus = shape.gpus_per_node > 0
                       ? shape.gpus_per_node
                       : static_cast<int>(std::max<std::size_t>(hw.gpus.size(), 1));
  if (r.nranks < 2) return unknown("fewer than two ranks");
  Ceiling c;
  c.tier = "nic-collective";
  c.spec = fmt::format("{} x {:g} Gb/s NIC port(s) for {} GPU(s)", active, rate_Gbps, gpus);
  c.GBps = active * rate_Gbps / 8.0 / gpus;  // decimal Gb/s -> GB/s (P08)
  c.metric = "per-accelerator inter-node rate busbw*(k-1)/(n-1)";
  c.measured_GBps = *r.busbw_GBps * (shape.nodes - 1) / (r.nranks - 1);  // P12
  if (shape.network == "Socket")
    c.causes.push_back("NCCL used NET/Socket, not the RDMA NICs (P05)");
  else if (!shape.gdrdma && !shape.network.empty())
    c.causes.push_back("GPUDirect RDMA not in use: traffic staged through host memory (P06)");
  return c;
}

Ceiling collective(const BenchmarkResult& r, const HardwareFacts& hw, const RunShape& shape) {
  if (shape.nodes > 1 && shape.nodes_emulated)
    return unknown("nodes emulated on one host: the inter-node path is loopback, not a NIC");
  Ceiling c = shape.nodes > 1 ? inter_node_collective(r, hw, shape) : intra_node_collective(r, hw);
  if (!c.unknown.empty()) return c;
  if (r.choice && (uses(*r.choice, "NVLS") || uses(*r.choice, "CollNet"))) {
    c.not_physical =
        "NCCL used NVLS/CollNet: switch-side reduction, busbw's ring formula does "
        "not describe the wire (P10)";
  } else if (c.measured_GBps > c.GBps) {
    c.not_physical = fmt::format(
        "{} {:.1f} GB/s is above 100 % of the {:.1f} GB/s {}: the ring formula does not describe "
        "the wire for {} (P10)",
        c.metric, c.measured_GBps, c.GBps, c.spec,
        r.choice && uses(*r.choice, "Tree") ? "a tree" : "this algorithm");
  }
  return c;
}

Ceiling rdma(const BenchmarkResult& r, const HardwareFacts& hw) {
  std::string device = text_param(r, "device_requested");
  if (device.empty()) device = text_param(r, "domain");
  if (device.empty()) device = text_param(r, "device");
  if (device.empty()) return unknown("the result does not name its NIC device");
  for (const NicPort& p : hw.nics) {
    if (device.rfind(p.device, 0) != 0 || p.rate_Gbps <= 0) continue;
    Ceiling c;
    c.tier = "nic-rdma";
    c.spec = fmt::format("{} port {} at {:g} Gb/s", p.device, p.port, p.rate_Gbps);
    c.GBps = p.rate_Gbps / 8.0;
    c.metric = "algbw";
    c.measured_GBps = r.algbw_GBps;
    if (!p.active()) c.causes.push_back(fmt::format("port state is {}", p.state));
    return c;
  }
  return unknown(fmt::format("the fingerprint lists no rate for NIC {}", device));
}

}  // namespace

std::optional<Ceiling> ceiling_for(const BenchmarkResult& r, const HardwareFacts& hw,
                                   const RunShape& shape) {
  if (r.status != ResultStatus::ok || r.algbw_GBps <= 0) return std::nullopt;
  if (r.op == "latency" || r.op == "pingpong") return std::nullopt;
  if (hw.gpus.empty() && r.family != "rdma")
    return unknown("the run has no fingerprint with a GPU section (" + hw.origin + ")");
  if (r.family == "p2p" && r.op == "local_copy")
    return unknown("a copy within one GPU is bounded by its memory, not a link");
  if (r.family == "coll" && r.busbw_GBps) return collective(r, hw, shape);
  Ceiling c;
  if (r.family == "hostcopy") {
    c = host_copy(r, hw);
  } else if (r.family == "p2p" && r.op == "copy") {
    c = pair_copy(r, hw);
  } else if (r.family == "rdma") {
    c = rdma(r, hw);
  } else {
    return std::nullopt;
  }
  // A copy faster than the link it crossed did not cross that link: the fingerprint names another
  // (a stale or foreign one), or the data took another path. Judging it "within" at 21,000 % of
  // a Gen1 x1 link (issue 58) says the roofline holds where it says nothing: NOT-PHYSICAL, as
  // for collectives above their tier.
  if (c.unknown.empty() && c.not_physical.empty() && c.GBps > 0 && c.measured_GBps > c.GBps)
    c.not_physical = fmt::format(
        "{} {:.1f} GB/s is above 100 % of the {:.1f} GB/s {}: no copy is faster than its link; "
        "the fingerprint's link is not the one the data crossed",
        c.metric, c.measured_GBps, c.GBps, c.spec);
  return c;
}

}  // namespace fabricgate::roofline
