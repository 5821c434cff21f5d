#include "harness/cluster/node_actions.hpp"
#include "harness/verdict/finding_ids.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace fabricgate::cluster {

namespace {

constexpr std::size_t kMaxHostName = 253;

bool alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// A name as it may be shown in a report: control and non-ASCII bytes as \xNN, so a hostile name
// can neither hide itself nor move a terminal's cursor.
std::string printable(std::string_view s) {
  std::string out;
  for (const char c : s.substr(0, kMaxHostName + 1)) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f || c == '\\') {
      out += fmt::format("\\x{:02x}", u);
    } else {
      out += c;
    }
  }
  if (s.size() > kMaxHostName + 1) out += "...";
  return out;
}

bool is_blaming(const verdict::ClusterFinding& f) {
  if (f.acked) return false;  // acknowledged until its expiry (harness/gate/acks.hpp)
  // A host outside the fleet is the node's finding whichever question the job asked
  // (harness/gate/runner_split.hpp): the admin acts on it even when the change passed.
  if (f.id == verdict::finding_id::host_outlier) return !f.node.empty();
  // A STRAGGLER names a node only when the rank was alone on its host (cluster/outliers.hpp).
  // DEGRADED-LINK: a NIC port of the host took fatal errors during a launch (docs/COUNTERS.md).
  return f.fails_gate &&
         (f.id == verdict::finding_id::suspect_node || f.id == verdict::finding_id::node_mismatch ||
          f.id == verdict::finding_id::degraded_link ||
          (f.id == verdict::finding_id::straggler && !f.node.empty()));
}

std::string finding_label(const verdict::ClusterFinding& f) {
  return f.field.empty() || f.id != verdict::finding_id::node_mismatch ? f.id
                                                                       : f.id + " " + f.field;
}

// Label and taint value: the first finding's id in lower case ("suspect-node").
std::string kubernetes_value(const std::string& id) {
  std::string v = id;
  std::transform(v.begin(), v.end(), v.begin(), [](char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  });
  return v;
}

const NodeRecord* find_node(const std::vector<NodeRecord>& nodes, const std::string& name) {
  for (const NodeRecord& n : nodes) {
    if (n.name == name) return &n;
  }
  return nullptr;
}

NodeAction make_action(const std::string& host) {
  NodeAction a;
  a.node = host;
  return a;
}

void finish(NodeAction& a, const std::string& run_id) {
  std::string what;
  for (const std::string& f : a.findings) what += (what.empty() ? "" : ", ") + f;
  a.reason = shell_quiet_text("fabricgate: " + what + " (" +
                              (run_id.empty() ? "" : "run " + run_id + ", ") + "severity " +
                              severity_name(a.severity) + ")");
  a.resume_argv = {"scontrol", "update", "NodeName=" + a.node, "State=RESUME"};
  if (!a.drains()) return;  // reboot-suggested, monitor: said, never drained or cordoned
  a.drain_argv = {"scontrol", "update", "NodeName=" + a.node, "State=DRAIN", "Reason=" + a.reason};
  // Every word is made of safe characters; only the Reason has spaces, and inside double quotes
  // none of its characters ($ ` \ " ! are all excluded) means anything to a shell.
  a.slurm_line = "scontrol update NodeName=" + a.node + " State=DRAIN Reason=\"" + a.reason + "\"";
  if (!is_kubernetes_node_name(a.node)) return;
  const std::string value =
      kubernetes_value(a.findings.front().substr(0, a.findings.front().find(' ')));
  a.kubectl_lines = {
      "kubectl cordon " + a.node,
      "kubectl label node " + a.node + " fabricgate/finding=" + value + " --overwrite",
      "kubectl taint node " + a.node + " fabricgate/finding=" + value + ":NoSchedule --overwrite"};
}

// Lower is more severe (the enum's order).
bool more_severe(NodeSeverity a, NodeSeverity b) {
  return static_cast<int>(a) < static_cast<int>(b);
}

}  // namespace

const char* severity_name(NodeSeverity s) {
  switch (s) {
    case NodeSeverity::drain: return "drain";
    case NodeSeverity::reboot_suggested: return "reboot-suggested";
    case NodeSeverity::monitor: return "monitor";
  }
  return "monitor";
}

FindingSeverity finding_severity(const verdict::ClusterFinding& f) {
  if (f.id == verdict::finding_id::degraded_link)
    return {NodeSeverity::drain, "fatal NIC port errors counted during the launch: a fact"};
  if (f.id == verdict::finding_id::node_mismatch)
    return {NodeSeverity::drain, "its software differs from the other nodes': a fact"};
  if (f.id == verdict::finding_id::host_outlier) {
    if (f.confirmed)
      return {NodeSeverity::drain,
              "its own level, from earlier sessions, is outside the fleet too: confirmed"};
    return {NodeSeverity::monitor, "outside the fleet in this run only: not confirmed"};
  }
  if (f.id == verdict::finding_id::suspect_node)
    return {NodeSeverity::reboot_suggested,
            "slower in every pair it is in, in this run only: not confirmed"};
  return {NodeSeverity::monitor, "seen in this run only: not confirmed"};  // STRAGGLER
}

bool is_reserved_node_word(std::string_view name) {
  // Words Slurm reads as something other than one node: NodeName=ALL is every node of the
  // cluster, DEFAULT the defaults line of slurm.conf, NONE/NULL an empty list. Any case.
  static constexpr std::string_view kReserved[] = {"all", "default", "none", "null"};
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  });
  return std::find(std::begin(kReserved), std::end(kReserved), lower) != std::end(kReserved);
}

bool is_safe_node_name(std::string_view name) {
  // Only [A-Za-z0-9._-], starting alphanumeric: no hostlist syntax ("[", "]", ",", "*"), no
  // option ("-..."), nothing a shell reads.
  if (name.empty() || name.size() > kMaxHostName || !alnum(name.front())) return false;
  if (is_reserved_node_word(name)) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return alnum(c) || c == '.' || c == '_' || c == '-'; });
}

bool is_kubernetes_node_name(std::string_view name) {
  if (name.empty() || name.size() > kMaxHostName) return false;
  const auto lower_alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (!lower_alnum(name.front()) || !lower_alnum(name.back())) return false;
  return std::all_of(name.begin(), name.end(),
                     [&](char c) { return lower_alnum(c) || c == '-' || c == '.'; });
}

std::string shell_quiet_text(std::string_view text, std::size_t max) {
  std::string out;
  for (const char c : text.substr(0, max)) {
    const bool keep = alnum(c) || c == ' ' || c == '.' || c == '_' || c == ',' || c == ':' ||
                      c == '+' || c == '=' || c == '/' || c == '(' || c == ')' || c == '-';
    out += keep ? c : '_';
  }
  return out;
}

NodeActionPlan plan_node_actions(const std::vector<verdict::ClusterFinding>& findings,
                                 const std::vector<NodeRecord>& nodes, const std::string& run_id) {
  NodeActionPlan plan;
  std::map<std::string, std::size_t> hosts_named;  // host name -> how many nodes carry it
  for (const NodeRecord& n : nodes) ++hosts_named[n.hostname.empty() ? n.name : n.hostname];
  std::map<std::string, std::size_t> action_of;  // host -> index in plan.actions
  for (const verdict::ClusterFinding& f : findings) {
    if (!is_blaming(f)) continue;
    const NodeRecord* node = find_node(nodes, f.node);
    if (!node && !nodes.empty()) {
      // A NODE-MISMATCH without a majority lists every node per value: nobody to blame.
      if (f.id == verdict::finding_id::node_mismatch &&
          f.text.find("no majority") != std::string::npos) {
        plan.unblamed.push_back(f.text);
      } else {
        plan.refused.push_back(
            {printable(f.node), f.id, "not a node of this run", !is_safe_node_name(f.node)});
      }
      continue;
    }
    // The machine is the node's host name: "<host>-rank<r>" names exist only to keep two nodes
    // with one host name apart, and an emulated node is a slice of one host.
    const std::string host = node && !node->hostname.empty() ? node->hostname : f.node;
    if (!is_safe_node_name(host)) {
      plan.refused.push_back({printable(host), f.id,
                              std::string(kNodeNameRule) + ": no command is built from it", true});
      continue;
    }
    if (node && node->emulated) {
      plan.refused.push_back(
          {host, f.id, "an emulated node on one host: there is no machine to take out", false});
      continue;
    }
    if (node && hosts_named[host] > 1) {
      plan.refused.push_back({host, f.id,
                              "host name shared by " + std::to_string(hosts_named[host]) +
                                  " nodes of this run: which machine is meant cannot be told",
                              false});
      continue;
    }
    auto [it, fresh] = action_of.try_emplace(host, plan.actions.size());
    if (fresh) plan.actions.push_back(make_action(host));
    NodeAction& a = plan.actions[it->second];
    a.findings.push_back(finding_label(f));
    a.details.push_back(f.text);
    const FindingSeverity sev = finding_severity(f);
    if (fresh || more_severe(sev.severity, a.severity)) {
      a.severity = sev.severity;
      a.severity_why = finding_label(f) + ": " + sev.why;
    }
  }
  for (NodeAction& a : plan.actions) finish(a, run_id);
  return plan;
}

std::vector<std::string> node_action_lines(const NodeActionPlan& plan) {
  std::vector<std::string> out;
  for (const NodeAction& a : plan.actions) {
    if (!a.drains()) {
      // As a shell comment: nothing to run, said with why.
      out.push_back("# " + std::string(severity_name(a.severity)) + " " + a.node + ": " +
                    shell_quiet_text(a.severity_why, 160) + " (no drain)");
      continue;
    }
    out.push_back("slurm: " + a.slurm_line);
    for (const std::string& k : a.kubectl_lines) out.push_back("kubernetes: " + k);
  }
  // As shell comments with the name made quiet: the lines may be pasted whole, and a refused
  // name is exactly the kind that must not reach a shell or break a Markdown fence.
  for (const RefusedNode& r : plan.refused) {
    out.push_back("# no action for " + r.finding + " node " + shell_quiet_text(r.node, 80) + ": " +
                  r.why);
  }
  return out;
}

}  // namespace fabricgate::cluster
