#include "harness/roofline/hardware_facts.hpp"

#include <algorithm>
#include <cstdlib>

#include "core/spec_table.hpp"

namespace fabricgate::roofline {

namespace {

using nlohmann::json;

const json* member(const json& j, const char* name) {
  if (!j.is_object()) return nullptr;
  const auto it = j.find(name);
  return it == j.end() || it->is_null() ? nullptr : &*it;
}

int int_of(const json* j) { return j && j->is_number() ? j->get<int>() : 0; }

std::string text_of(const json* j) { return j && j->is_string() ? j->get<std::string>() : ""; }

std::optional<PcieLink> pcie_of(const json* p) {
  if (p == nullptr) return std::nullopt;
  PcieLink link{int_of(member(*p, "current_gen")), int_of(member(*p, "current_width")),
                int_of(member(*p, "max_gen")), int_of(member(*p, "max_width"))};
  if (link.current_gen <= 0 || link.current_width <= 0) return std::nullopt;
  // A fingerprint without the maximum says only what the link trained at.
  if (link.max_gen <= 0) link.max_gen = link.current_gen;
  if (link.max_width <= 0) link.max_width = link.current_width;
  return link;
}

GpuFacts gpu_of(const json& d, int position) {
  GpuFacts g;
  g.index = member(d, "index") ? int_of(member(d, "index")) : position;
  g.name = text_of(member(d, "name"));
  g.pcie = pcie_of(member(d, "pcie"));
  if (const json* nv = member(d, "nvlink")) {
    g.nvlink_active_links = int_of(member(*nv, "active_links"));
    if (const int gen = int_of(member(*nv, "generation")); gen > 0) g.nvlink_generation = gen;
  }
  if (!g.nvlink_generation) {
    if (const int arch = int_of(member(d, "architecture")); arch > 0)
      g.nvlink_generation = nvlink_generation(arch, 0);
  }
  return g;
}

void nics_of(const json& fp, HardwareFacts& out) {
  const json* rdma = member(fp, "rdma");
  const json* verbs = rdma ? member(*rdma, "ibverbs") : nullptr;
  const json* devices = verbs ? member(*verbs, "devices") : nullptr;
  if (devices == nullptr || !devices->is_array()) return;
  for (const json& d : *devices) {
    const json* ports = member(d, "ports");
    if (ports == nullptr || !ports->is_array()) continue;
    for (const json& p : *ports) {
      NicPort port;
      port.device = text_of(member(d, "name"));
      port.port = member(p, "port") ? int_of(member(p, "port")) : 1;
      port.state = text_of(member(p, "state"));
      const json* numeric = member(p, "rate_Gbps");
      port.rate_Gbps = numeric && numeric->is_number()
                           ? numeric->get<double>()
                           : parse_port_rate_Gbps(text_of(member(p, "rate")));
      out.nics.push_back(port);
    }
  }
}

}  // namespace

const GpuFacts* HardwareFacts::gpu(int index) const {
  for (const GpuFacts& g : gpus) {
    if (g.index == index) return &g;
  }
  return nullptr;
}

int HardwareFacts::pair_links(int a, int b) const {
  if (a < 0 || b < 0 || static_cast<std::size_t>(a) >= pair_nvlinks.size()) return 0;
  const auto& row = pair_nvlinks[static_cast<std::size_t>(a)];
  return static_cast<std::size_t>(b) < row.size() ? row[static_cast<std::size_t>(b)] : 0;
}

int HardwareFacts::max_nvlink_active_links() const {
  int n = 0;
  for (const GpuFacts& g : gpus) n = std::max(n, g.nvlink_active_links);
  return n;
}

double parse_port_rate_Gbps(const std::string& text) {
  const char* begin = text.c_str();
  char* end = nullptr;
  const double v = std::strtod(begin, &end);
  if (end == begin || v <= 0) return 0;
  return text.find("Gb/s", static_cast<std::size_t>(end - begin)) != std::string::npos ? v : 0;
}

HardwareFacts hardware_facts(const json& fp) {
  HardwareFacts out;
  out.origin = "fingerprint";
  if (!fp.is_object()) return out;
  if (const json* g = member(fp, "gpus")) {
    if (const json* devices = member(*g, "devices"); devices && devices->is_array()) {
      for (std::size_t i = 0; i < devices->size(); ++i)
        out.gpus.push_back(gpu_of((*devices)[i], static_cast<int>(i)));
    }
    const json* topo = member(*g, "topology");
    const json* matrix = topo ? member(*topo, "nvlinks") : nullptr;
    if (matrix && matrix->is_array()) {
      for (const json& row : *matrix) {
        std::vector<int> links;
        if (row.is_array()) {
          for (const json& v : row) links.push_back(v.is_number() ? v.get<int>() : 0);
        }
        out.pair_nvlinks.push_back(std::move(links));
      }
    }
  }
  nics_of(fp, out);
  return out;
}

}  // namespace fabricgate::roofline
