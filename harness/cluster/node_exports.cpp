#include "harness/cluster/node_exports.hpp"
#include "harness/verdict/finding_ids.hpp"

#include <algorithm>

namespace fabricgate::cluster {

namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

// "NODE-MISMATCH driver" -> "NodeMismatch": a Kubernetes reason is one CamelCase word.
std::string camel_case_id(const std::string& finding) {
  const std::string id = finding.substr(0, finding.find(' '));
  std::string out;
  bool upper = true;
  for (const char c : id) {
    if (c == '-' || c == '_') {
      upper = true;
      continue;
    }
    const bool letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    if (!letter && !digit(c)) continue;
    const char lower = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    out += upper && lower >= 'a' && lower <= 'z' ? static_cast<char>(lower - 'a' + 'A') : lower;
    upper = false;
  }
  return out.empty() ? "Finding" : out;
}

// A DNS-1123 subdomain made of `text`: lower case, [a-z0-9.-], alphanumeric at both ends.
std::string dns_name(const std::string& text, std::size_t max) {
  std::string out;
  for (const char c : text) {
    const char lower = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    const bool ok = (lower >= 'a' && lower <= 'z') || digit(lower);
    out += ok ? lower : '-';
  }
  if (out.size() > max) out.resize(max);
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

// NVSentinel's componentClass: a port with fatal errors is the NIC's; the other findings are
// about the node as a whole (its software, its place in the pairs, its level).
std::string component_class(const std::string& finding) {
  return finding.rfind(verdict::finding_id::degraded_link, 0) == 0 ? "NIC" : "Node";
}

// What NVSentinel should recommend: drain asks for a person (fabricgate cannot tell a bad cable
// from bad firmware), a single-run suspect a reboot of the bare-metal node, the rest nothing.
std::string recommended_action(NodeSeverity s) {
  switch (s) {
    case NodeSeverity::drain: return "CONTACT_SUPPORT";
    case NodeSeverity::reboot_suggested: return "RESTART_BM";
    case NodeSeverity::monitor: return "NONE";
  }
  return "NONE";
}

}  // namespace

std::string finding_time(const std::string& started_at, const std::string& fallback) {
  // YYYY-MM-DDTHH:MM:SS then an optional fraction, then Z.
  const std::string& s = started_at;
  if (s.size() < 20 || s.back() != 'Z' || s[4] != '-' || s[7] != '-' || s[10] != 'T' ||
      s[13] != ':' || s[16] != ':')
    return fallback;
  for (const std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18})
    if (!digit(s[i])) return fallback;
  const std::string rest = s.substr(19, s.size() - 20);  // "" or ".123"
  if (!rest.empty() &&
      (rest[0] != '.' || rest.size() < 2 || !std::all_of(rest.begin() + 1, rest.end(), digit)))
    return fallback;
  return s.substr(0, 19) + "Z";
}

nlohmann::json node_condition(const NodeAction& action, const std::string& time) {
  return {{"type", kNodeConditionType},
          {"status", "True"},
          {"reason", camel_case_id(action.findings.empty() ? "" : action.findings.front())},
          {"message", action.reason},
          {"lastHeartbeatTime", time},
          {"lastTransitionTime", time}};
}

std::string node_condition_line(const NodeAction& action, const std::string& time) {
  if (!is_kubernetes_node_name(action.node)) return "";
  const nlohmann::json patch = {
      {"status", {{"conditions", nlohmann::json::array({node_condition(action, time)})}}}};
  return "kubectl patch node " + action.node + " --subresource=status --type=strategic --patch '" +
         patch.dump() + "'";
}

nlohmann::json nvsentinel_health_events(const NodeActionPlan& plan, const std::string& run_id,
                                        const std::string& time) {
  nlohmann::json items = nlohmann::json::array();
  for (const NodeAction& a : plan.actions) {
    if (!is_kubernetes_node_name(a.node)) continue;
    std::string message;
    for (const std::string& d : a.details) message += (message.empty() ? "" : "; ") + d;
    nlohmann::json error_codes = nlohmann::json::array();
    for (const std::string& f : a.findings) error_codes.push_back(f.substr(0, f.find(' ')));
    const std::string first = a.findings.empty() ? "finding" : a.findings.front();
    nlohmann::json event = {
        {"apiVersion", "nvsentinel.nvidia.com/v1alpha1"},
        {"kind", "HealthEvent"},
        {"metadata",
         {{"name", dns_name("fabricgate-" + a.node + "-" + run_id, 253)},
          {"labels", {{"app.kubernetes.io/managed-by", "fabricgate"}}}}},
        {"spec",
         {{"source", "fabricgate"},
          {"agent", "fabricgate"},
          {"checkName", "fabricgate-" + dns_name(first.substr(0, first.find(' ')), 63)},
          {"componentClass", component_class(first)},
          {"detectedAt", time},
          {"isFatal", a.severity == NodeSeverity::drain},
          {"isHealthy", false},
          {"nodeName", a.node},
          {"message", message},
          {"errorCodes", error_codes},
          {"recommendedAction", recommended_action(a.severity)},
          {"metadata",
           {{"run", run_id},
            {"severity", severity_name(a.severity)},
            {"severityWhy", a.severity_why},
            {"reason", a.reason}}}}}};
    items.push_back(std::move(event));
  }
  return {{"apiVersion", "v1"}, {"kind", "List"}, {"items", std::move(items)}};
}

}  // namespace fabricgate::cluster
