#pragma once
// Two questions, two verdicts (harness/gate/README.md "Two questions"). After the confirmations,
// every judged key answers both:
//   change: did the change make this runner slower than it was? The key's verdict, judged against
//           this host's own level where it has one (metric_judge.hpp JudgedHost), else the fleet.
//   runner: is this runner like the fleet? The same launch against the baseline's fleet centre.
//
// The rules, in the order applied:
//  - A key is OUTSIDE THE FLEET when this launch is beyond the fleet band and so is the host's own
//    level (judged against its history), or when it was judged against the fleet and its REGRESSION
//    stood through the confirmations (a host with no level of its own).
//  - --gate change: such a REGRESSION of a key judged against the fleet (no history of this host)
//    becomes RUNNER-DIFFERS: the runner and the change cannot be told apart here, so the change is
//    not judged (exit 3), never blamed. The reason says whether the software equals the
//    baseline's (then the runner differs), or changed too (then nothing in one job separates
//    them: run the paired check, `fabricgate ab`, on this runner, or run on a known host), and
//    how to give the host a level of its own. A run that names no host at all (an import without a
//    fingerprint) is judged by the fleet as before: nothing says it is a new runner.
//    Except (gross_change.hpp) when the software changed and the key is further below the fleet
//    centre than the gross-change limit: no runner of the fleet has been that far, so it stays
//    REGRESSION, its reason naming the limit. Within the limit the reason gives the exact paired
//    check to run (the changed settings as `fabricgate ab` sides).
//  - A HOST-OUTLIER finding names the host id and name, the keys, their offset in fleet
//    between-session SDs and their roofline fraction. It fails under --gate fleet and both, never
//    under change; `fabricgate nodes` plans the action for the host in every mode. Under --gate
//    both a key that is already a failing REGRESSION is not counted again in the finding.
//  - --gate change: keys under their roofline floor (a note, not a verdict, there) are a
//    BELOW-ROOFLINE runner finding that does not fail.
#include "harness/gate/gross_change.hpp"
#include "harness/model/run_record.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::gate {

// `gross_change`: the platform's gross-change limits, or null (every such key RUNNER-DIFFERS).
void split_change_and_runner(verdict::Comparison& c, const RunRecord& run,
                             const GrossChangeLimits* gross_change = nullptr);

// The findings a node action may be planned for: all but a HOST-OUTLIER measured on a busy runner
// or beside a software change (its offset may be the load's or the change's).
std::vector<verdict::ClusterFinding> actionable_findings(const verdict::Comparison& c);

}  // namespace fabricgate::gate
