#include "harness/cluster/cluster_consistency.hpp"
#include "harness/verdict/finding_ids.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace fabricgate::cluster {

namespace {

std::string shown(const std::string& value) {
  return value.empty() ? "(none)" : "\"" + value + "\"";
}

// "a, b, c" shortened to the first few names and a count: a finding on 1,024 nodes stays one line.
std::string name_list(const std::vector<std::string>& names) {
  constexpr std::size_t kShown = 5;
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < kShown; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > kShown) out += " and " + std::to_string(names.size() - kShown) + " more";
  return out;
}

}  // namespace

std::vector<verdict::ClusterFinding> check_cluster_consistency(
    const std::vector<NodeRecord>& nodes) {
  std::vector<verdict::ClusterFinding> out;
  if (nodes.size() < 2) return out;
  std::set<std::string> fields;
  for (const NodeRecord& n : nodes) {
    for (const auto& [k, v] : n.facts) fields.insert(k);
  }
  for (const std::string& field : fields) {
    std::map<std::string, std::vector<std::string>> by_value;  // value -> nodes (absent = "")
    for (const NodeRecord& n : nodes) {
      const auto it = n.facts.find(field);
      by_value[it == n.facts.end() ? std::string() : it->second].push_back(n.name);
    }
    if (by_value.size() < 2) continue;
    const auto majority = std::max_element(
        by_value.begin(), by_value.end(),
        [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
    const bool strict = majority->second.size() * 2 > nodes.size();
    if (strict) {
      for (const auto& [value, names] : by_value) {
        if (value == majority->first) continue;
        for (const std::string& node : names) {
          out.push_back({verdict::finding_id::node_mismatch, true, node, field,
                         "node " + node + ": " + field + " " + shown(value) + " differs from " +
                             shown(majority->first) + " on " +
                             std::to_string(majority->second.size()) + " of " +
                             std::to_string(nodes.size()) + " nodes",
                         ""});
        }
      }
      continue;
    }
    std::string text = field + " differs between nodes with no majority:";
    std::vector<std::string> all;
    for (const auto& [value, names] : by_value) {
      text += " " + shown(value) + " on " + name_list(names) + ";";
      all.insert(all.end(), names.begin(), names.end());
    }
    text.pop_back();
    out.push_back({verdict::finding_id::node_mismatch, true, name_list(all), field, text, ""});
  }
  return out;
}

}  // namespace fabricgate::cluster
