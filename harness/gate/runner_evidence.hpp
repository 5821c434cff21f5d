#pragma once
// What the runner was doing behind the verdicts (docs/COUNTERS.md), from the run.json
// "runner_counters" of the first launch and its confirmation launches. A step after judge_run's
// busy-CPU rule (mark_busy_runner), on the same terms:
//   1. DEGRADED-LINK: a fatal RDMA counter increment during a judged launch (link_downed,
//      excessive_buffer_overrun_errors, local_link_integrity_errors, rnr_nak_retry_err, a
//      symbol-error rate over 120/hour, a port that left ACTIVE, a device that vanished) is a
//      cluster finding that fails the gate, naming device and port, node = the host; degradation
//      (symbol_error > 10/s, link_error_recovery > 5/min, ...) is the same finding as a warning.
//      No baseline is needed. A failing finding also ends "runner busy" (as mark_busy_runner
//      never marks a run with one).
//   2. Throttling: a GPU's thermal, power or hardware-slowdown clock events during a launch a
//      failing key was measured in are added to that key's reason.
//   3. A busy GPU: when a judged launch had a compute process on its GPUs that was not one of its
//      ranks, every failing verdict is one load makes by itself (REGRESSION, BELOW-ROOFLINE, DIP,
//      DRIFT) and no cluster finding fails, the run is "runner busy, not judged" (exit 3), the
//      headline naming the process, its pid and its GPU. Wrong results, fallbacks and missing keys
//      still fail; a pass stays a pass.
#include <vector>

#include "harness/model/run_record.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::gate {

// Pure: the evidence of the launches (first, then confirmations in order): foreign processes,
// throttling lines, what was not read; `busy_gpu` is left false (settle_outcome decides).
verdict::RunnerEvidence collect_runner_evidence(const RunRecord& first,
                                                const std::vector<RunRecord>& confirmations);

// Pure: the DEGRADED-LINK findings of one launch (node = the launching host).
std::vector<verdict::ClusterFinding> link_cluster_findings(const RunRecord& launch);

// Steps 1 and 2 above on a judged comparison of `first` with these confirmation launches, and
// what step 3 reads; the outcome is not settled (judge_run settles once, after every stage).
void add_runner_evidence(verdict::Comparison& c, const RunRecord& first,
                         const std::vector<RunRecord>& confirmations);

// The same, then the outcome settled (step 3): the evidence on its own, as tests judge it.
void apply_runner_evidence(verdict::Comparison& c, const RunRecord& first,
                           const std::vector<RunRecord>& confirmations);

// judge_run's stage: add_runner_evidence with the confirmation launches the comparison names
// (each key's confirmation->later[].source, a run directory) read from disk; one that cannot be
// read is named in runner_evidence.unread and skipped.
void add_runner_evidence(verdict::Comparison& c, const RunRecord& first);

}  // namespace fabricgate::gate
