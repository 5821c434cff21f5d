#pragma once
// The node actions (node_actions.hpp) handed to the remediation stacks a cluster already runs,
// instead of only lines to paste (issue 56 item 3):
//   - NVIDIA NVSentinel: one HealthEvent (nvsentinel.nvidia.com/v1alpha1) per blamed Kubernetes
//     node, as a `kind: List` that `kubectl apply -f` takes. isFatal only for severity drain, so
//     NVSentinel's fault-quarantine acts on what fabricgate would drain and only records the rest.
//   - Kubernetes: a node condition (type FabricgateDegraded) patched on the node's status, beside
//     the cordon/label/taint lines: `kubectl describe node` and any controller watching conditions
//     see why the node is out, also for a finding that drains nothing.
// Both are validated in CI against the schemas their projects publish (tests/data/schemas).
// Pure: the times are the run's start, so the same run gives the same documents.
#include <string>

#include <nlohmann/json.hpp>

#include "harness/cluster/node_actions.hpp"

namespace fabricgate::cluster {

inline constexpr const char* kNodeConditionType = "FabricgateDegraded";

// The time a finding was seen: `started_at` when it is an RFC 3339 UTC time
// (YYYY-MM-DDTHH:MM:SSZ, fractions dropped), else `fallback`.
std::string finding_time(const std::string& started_at, const std::string& fallback);

// {"apiVersion": "v1", "kind": "List", "items": [HealthEvent...]}: one event per action whose node
// is a Kubernetes node name; `run_id` names the events and is kept in their metadata.
nlohmann::json nvsentinel_health_events(const NodeActionPlan& plan, const std::string& run_id,
                                        const std::string& time);

// The NodeCondition fabricgate sets on the action's node (status True, reason the first finding
// in CamelCase, message the Slurm Reason text).
nlohmann::json node_condition(const NodeAction& action, const std::string& time);

// kubectl patch node N --subresource=status --type=strategic --patch '{"status":{"conditions":
// [...]}}', or "" when N is not a Kubernetes node name. The patch holds only characters of
// shell_quiet_text and JSON punctuation: inside single quotes nothing in it means anything to a
// shell.
std::string node_condition_line(const NodeAction& action, const std::string& time);

}  // namespace fabricgate::cluster
