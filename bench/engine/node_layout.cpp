#include "bench/engine/node_layout.hpp"

#include <algorithm>
#include <map>

namespace fabricgate::bench {

NodeLayout discover_nodes(Communicator& comm, const std::string& my_node_name, bool emulated) {
  NodeLayout layout;
  layout.emulated = emulated;
  const std::vector<std::string> names = comm.all_gather(my_node_name);
  std::map<std::string, int> index;
  std::vector<int> count;
  for (std::size_t r = 0; r < names.size(); ++r) {
    auto [it, fresh] = index.emplace(names[r], static_cast<int>(layout.names.size()));
    if (fresh) {
      layout.names.push_back(names[r]);
      layout.leader.push_back(static_cast<int>(r));
      count.push_back(0);
    }
    layout.node_of_rank.push_back(it->second);
    ++count[static_cast<std::size_t>(it->second)];
  }
  if (!count.empty()) {
    layout.ranks_per_node_min = *std::min_element(count.begin(), count.end());
    layout.ranks_per_node_max = *std::max_element(count.begin(), count.end());
  }
  return layout;
}

int emulated_node_of(int rank, int nranks, int nodes) {
  if (nodes < 1 || nodes > nranks || nranks % nodes != 0) return -1;
  return rank / (nranks / nodes);
}

std::string key_safe_node_name(const std::string& name) {
  std::string out = name.empty() ? std::string("unnamed") : name;
  for (char& c : out) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_';
    if (!ok) c = '_';  // '.' too: keys must not contain ".." and dots in host names add nothing
  }
  return out;
}

}  // namespace fabricgate::bench
