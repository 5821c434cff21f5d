#pragma once
// What a cluster admin does about a node the gate blames (SUSPECT-NODE, NODE-MISMATCH with a
// majority): take it out of scheduling. For Slurm
//   scontrol update NodeName=<node> State=DRAIN Reason="fabricgate: <finding> (run <id>)"
// and for Kubernetes kubectl cordon / label / taint lines. Pure: `fabricgate nodes --drain`
// (harness/cli/cmd_nodes.cpp) runs the Slurm argument vectors, the reports print the lines.
//
// Node names and run ids come from run.json, which a hostile or broken bench could fill with
// anything, and the lines are meant to be pasted into a shell. So a node name must be
// [A-Za-z0-9][A-Za-z0-9._-]* (at most 253 characters: a host name; Slurm and Kubernetes names
// fit), else no action is planned and the name is refused with the reason; the Reason text keeps
// only characters that mean nothing to a shell inside double quotes.
#include <string>
#include <string_view>
#include <vector>

#include "harness/model/run_record.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::cluster {

// How bad a runner finding is, and so what is done about the node (issue 55; the rule is
// finding_severity below, documented in docs/MULTINODE.md "Severity"):
//   drain             take it out of scheduling: a confirmed finding (a fact of the node, or an
//                     offset seen across sessions)
//   reboot-suggested  a measurement of this run only that points at the node (SUSPECT-NODE)
//   monitor           watch it: an offset or a late rank seen in this run only
// Only `drain` plans a Slurm DRAIN or a kubectl cordon; the others are said, with why.
enum class NodeSeverity { drain, reboot_suggested, monitor };
const char* severity_name(NodeSeverity s);  // "drain" | "reboot-suggested" | "monitor"

struct FindingSeverity {
  NodeSeverity severity = NodeSeverity::monitor;
  std::string why;
};
FindingSeverity finding_severity(const verdict::ClusterFinding& f);

struct NodeAction {
  std::string node;                   // the machine: its host name, as Slurm and Kubernetes know it
  std::vector<std::string> findings;  // "NODE-MISMATCH driver", "SUSPECT-NODE", in report order
  std::vector<std::string> details;   // the findings' report lines
  std::string reason;                 // Slurm Reason: "fabricgate: NODE-MISMATCH driver (run R)"
  std::vector<std::string> drain_argv;     // scontrol update NodeName=N State=DRAIN Reason=...
  std::vector<std::string> resume_argv;    // scontrol update NodeName=N State=RESUME (undo)
  std::string slurm_line;                  // drain_argv as a shell line
  std::vector<std::string> kubectl_lines;  // empty when N is not a Kubernetes node name
  // The most severe of its findings; drain_argv, slurm_line and kubectl_lines only for `drain`.
  NodeSeverity severity = NodeSeverity::monitor;
  std::string severity_why;  // the finding that set it, and why
  bool drains() const { return severity == NodeSeverity::drain; }
};

// A finding that names a node no action can be planned for: an unsafe name, an emulated node,
// a host name several nodes share.
struct RefusedNode {
  std::string node;  // printable (control characters escaped)
  std::string finding;
  std::string why;
  bool unsafe_name =
      false;  // the data is bad (exit 2 for `fabricgate nodes`), not merely unactionable
};

struct NodeActionPlan {
  std::vector<NodeAction> actions;
  std::vector<RefusedNode> refused;
  std::vector<std::string> unblamed;  // failing findings that name no single node (no majority)
  bool empty() const { return actions.empty() && refused.empty() && unblamed.empty(); }
};

// What a node name must be, for messages.
inline constexpr std::string_view kNodeNameRule =
    "one real node name: [A-Za-z0-9][A-Za-z0-9._-]*, at most 253 characters, not a Slurm "
    "reserved word (ALL, DEFAULT, NONE, NULL in any case) nor a node list or range";
// ALL, DEFAULT, NONE, NULL in any case: words Slurm reads as other than one node.
bool is_reserved_node_word(std::string_view name);
// [A-Za-z0-9][A-Za-z0-9._-]{0,252} and not a reserved word.
bool is_safe_node_name(std::string_view name);
// DNS-1123 subdomain: lowercase letters, digits, '-' and '.', alphanumeric at both ends, <= 253.
bool is_kubernetes_node_name(std::string_view name);
// Keeps [A-Za-z0-9 ._,:+=/()-], replaces anything else by '_', cuts at `max` characters.
std::string shell_quiet_text(std::string_view text, std::size_t max = 200);

// One action per blamed node (its findings merged), from the failing SUSPECT-NODE, STRAGGLER (alone
// on its host) and NODE-MISMATCH findings; `nodes` maps a finding's node name to its host name and
// tells emulated nodes apart (an empty list: names are taken as host names).
NodeActionPlan plan_node_actions(const std::vector<verdict::ClusterFinding>& findings,
                                 const std::vector<NodeRecord>& nodes, const std::string& run_id);

// The plan as report lines: "slurm: scontrol ...", "kubernetes: kubectl ...", and
// "# no action for <finding> node <name>: <why>" (the name reduced to shell_quiet_text).
std::vector<std::string> node_action_lines(const NodeActionPlan& plan);

}  // namespace fabricgate::cluster
