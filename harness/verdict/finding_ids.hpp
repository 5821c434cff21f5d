#pragma once
// The names a judgement uses beside the per-key verdicts, each spelled once: the cluster findings
// (ClusterFinding::id), the runner question's answers (SettledOutcome::runner) and what a key was
// judged against (MetricJudgement::reference). Rules,
// printers, node actions and the store compare with these constants, never with a literal.
#include <string_view>

namespace fabricgate::verdict {

namespace finding_id {
inline constexpr const char* host_outlier = "HOST-OUTLIER";      // the host outside the fleet
inline constexpr const char* below_roofline = "BELOW-ROOFLINE";  // under the roofline floor
inline constexpr const char* degraded_link = "DEGRADED-LINK";    // a fatal RDMA counter, a port
inline constexpr const char* suspect_node = "SUSPECT-NODE";      // slows every pair it is in
inline constexpr const char* slow_pair = "SLOW-PAIR";            // one node pair far below
inline constexpr const char* node_mismatch = "NODE-MISMATCH";    // a node's facts differ
inline constexpr const char* straggler = "STRAGGLER";            // one rank late in a collective
}  // namespace finding_id

namespace runner_answer {
inline constexpr const char* like_fleet = "LIKE-FLEET";
inline constexpr const char* host_outlier = finding_id::host_outlier;
inline constexpr const char* degraded_link = finding_id::degraded_link;
inline constexpr const char* degraded = "DEGRADED";  // slower than its own level, software same
inline constexpr const char* busy_gpu = "BUSY-GPU";
inline constexpr const char* below_roofline = finding_id::below_roofline;
inline constexpr const char* not_judged = "NOT-JUDGED";  // no baseline
}  // namespace runner_answer

// What a key's judgement was measured against (MetricJudgement::reference).
namespace reference {
inline constexpr const char* fleet = "fleet";                    // the baseline's platform centre
inline constexpr const char* host_baseline = "host-baseline";    // this host's baseline sessions
inline constexpr const char* host_history = "host-history";      // its earlier launches (store)
inline constexpr const char* fleet_for_host = "fleet-for-host";  // the fleet's band, NOISY host
inline constexpr const char* host_anchor = "host-anchor";        // its first accepted level (store)

// The two families the Change line counts: judged against this host's own level, or the fleet's.
inline bool is_host_level(std::string_view r) {
  return r == host_baseline || r == host_history || r == host_anchor;
}
inline bool is_fleet(std::string_view r) { return r == fleet || r == fleet_for_host; }
}  // namespace reference

}  // namespace fabricgate::verdict
