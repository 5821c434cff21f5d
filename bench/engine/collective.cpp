#include "bench/engine/collective.hpp"

#include <algorithm>
#include <stdexcept>

namespace fabricgate::bench {

CollectiveRegistry& CollectiveRegistry::instance() {
  static CollectiveRegistry registry;  // filled during static initialisation, read-only after
  return registry;
}

void CollectiveRegistry::add(CollectiveDef def) {
  const CollectiveFacts* facts = find_collective(def.name);
  // Runs during static initialisation: a fixture without a core row is a build mistake that no
  // run may start with.
  if (!facts)
    throw std::logic_error("collective \"" + def.name +
                           "\" has no row in core/collective_facts.hpp (kCollectives)");
  def.kind = facts->kind;
  def.reduces = facts->reduces;
  def.rooted = facts->rooted;
  def.busbw_factor = facts->busbw_factor;
  defs_.push_back(std::move(def));
}

const CollectiveDef* CollectiveRegistry::find(std::string_view name) const {
  auto it = std::find_if(defs_.begin(), defs_.end(),
                         [&](const CollectiveDef& d) { return d.name == name; });
  return it == defs_.end() ? nullptr : &*it;
}

PeerBlocks peer_blocks(const CollectiveDef& def, const CollectiveCounts& counts, int rank,
                       int nranks) {
  PeerBlocks b;
  const auto n = static_cast<std::size_t>(nranks);
  b.send_counts.resize(n);
  b.send_offsets.resize(n);
  b.recv_counts.resize(n);
  b.recv_offsets.resize(n);
  std::size_t sent = 0;
  std::size_t received = 0;
  for (int peer = 0; peer < nranks; ++peer) {
    const auto p = static_cast<std::size_t>(peer);
    b.send_counts[p] = def.peer_count(rank, peer, nranks, counts);
    b.recv_counts[p] = def.peer_count(peer, rank, nranks, counts);
    b.send_offsets[p] = sent;
    b.recv_offsets[p] = received;
    sent += b.send_counts[p];
    received += b.recv_counts[p];
  }
  return b;
}

std::string placement_unsupported_reason(const CollectiveDef& def, bool in_place) {
  if (!in_place || def.supports_in_place()) return {};
  return "in-place " + def.name +
         " is not measured (out of place only: MPI's and NCCL's in-place forms differ)";
}

double reduce_inputs(int nranks, std::size_t index,
                     const std::function<double(int, std::size_t)>& input, RedOp op) {
  double acc = input(0, index);
  for (int r = 1; r < nranks; ++r) {
    const double v = input(r, index);
    switch (op) {
      case RedOp::sum:
      case RedOp::avg: acc += v; break;
      case RedOp::prod: acc *= v; break;
      case RedOp::min: acc = std::min(acc, v); break;
      case RedOp::max: acc = std::max(acc, v); break;
    }
  }
  return op == RedOp::avg ? acc / nranks : acc;
}

double pattern_value(int rank, int nranks, std::size_t index, RedOp op) {
  switch (op) {
    case RedOp::prod:
      return (index % static_cast<std::size_t>(nranks)) == static_cast<std::size_t>(rank) ? 2.0
                                                                                          : 1.0;
    case RedOp::avg: {
      const double base = 2.0 + static_cast<double>(index % 5);
      if (nranks >= 2 && rank == 0) return base + 1.0;
      if (nranks >= 2 && rank == 1) return base - 1.0;
      return base;
    }
    default: return 1.0 + static_cast<double>((index + 3 * static_cast<std::size_t>(rank)) % 7);
  }
}

}  // namespace fabricgate::bench
