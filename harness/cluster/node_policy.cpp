#include "harness/cluster/node_policy.hpp"

#include <algorithm>
#include <cmath>

#include "core/json_file.hpp"

namespace fabricgate::cluster {

NodePolicy load_node_policy(const std::filesystem::path& file) {
  const nlohmann::json doc = load_json_file(file);
  const JsonReader r(doc, file.string());
  r.object_at("");
  r.only_fields("", {"schema", "description", "drain_budget", "resume_after_passing_runs"});
  if (r.string_at("/schema") != kNodePolicySchema)
    r.fail("/schema", std::string("\"") + kNodePolicySchema + "\"");
  NodePolicy p;
  p.source = file.string();
  if (r.find("/drain_budget")) {
    r.only_fields("/drain_budget", {"share", "min_nodes"});
    p.drain_share = r.number_at("/drain_budget/share");
    // Above one half the budget no longer tells a bad node from a bad fabric.
    if (!(p.drain_share > 0 && p.drain_share <= 0.5))
      r.fail("/drain_budget/share", "a share of the allocation's nodes in (0, 0.5]");
    const long long min_nodes = r.integer_at("/drain_budget/min_nodes");
    if (min_nodes < 0 || min_nodes > 1000)
      r.fail("/drain_budget/min_nodes", "a node count from 0 to 1000");
    p.drain_min_nodes = static_cast<int>(min_nodes);
  }
  if (r.find("/resume_after_passing_runs")) {
    const long long n = r.integer_at("/resume_after_passing_runs");
    if (n < 1 || n > 100)
      r.fail("/resume_after_passing_runs", "1 to 100 passing runs (0 would resume blindly)");
    p.resume_after_passing_runs = static_cast<int>(n);
  }
  return p;
}

NodePolicy find_node_policy(const std::vector<std::filesystem::path>& dirs) {
  std::error_code ec;
  for (const std::filesystem::path& dir : dirs) {
    if (std::filesystem::exists(dir / "nodes.json", ec))
      return load_node_policy(dir / "nodes.json");
  }
  return {};
}

std::size_t drain_budget(const NodePolicy& policy, std::size_t allocation_nodes) {
  const auto share = static_cast<std::size_t>(
      std::floor(policy.drain_share * static_cast<double>(allocation_nodes)));
  return std::max(static_cast<std::size_t>(policy.drain_min_nodes), share);
}

}  // namespace fabricgate::cluster
