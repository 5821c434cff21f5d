#pragma once
// The verdict of one key: the enum every rule and renderer shares. Its properties (fails, warns,
// style, ...) are rows of verdict_table.hpp.
namespace fabricgate::verdict {

// Ordered by how urgently a reader must look at it (renderers sort by this).
enum class Verdict {
  invalid,            // a PITFALLS error (e.g. P01) or a benchmark that errored
  wrong_results,      // status "wrong"
  transport_changed,  // P05/P06: network, transports, GDRDMA or libfabric provider differ
  algo_changed,       // P19: NCCL's algorithm/protocol set differs
  regression,
  below_roofline,  // under the roofline policy's floor for its tier (harness/roofline); no baseline
  dip,             // bandwidth falls as the size grows, in the bandwidth regime (judge.hpp)
  drift,           // passed this run, but the store's recent runs sit on a worse level (drift.hpp)
  missing,         // in the baseline, not in the run
  acked,  // failed the gate, but an active acknowledgement covers it (harness/gate/acks.hpp): a
          // warning until the ack expires
  runner_differs,  // outside the fleet on a host with no history of its own: the change is not
                   // judged here (harness/gate/runner_split.hpp); a warning, exit 3
  unstable,    // the launch's repetitions disagree (robust CV > policy unstable_cv): not judged, a
               // warning
  ambiguous,   // crossed the band once, the confirmation launch did not (or not judgeable)
  jitter,      // passed, but the launch's p99/p50 is beyond the baseline's launches (jitter_judge)
  noisy,       // the baseline's launch-to-launch band is wider than policy max_band: informational
  unmeasured,  // the baseline's launches come from fewer sittings than min_sessions: the noise
               // between sittings is unmeasured, the key is not gated (launch_band.hpp)
  improvement,
  new_key,  // in the run, not in the baseline
  pass,
  skipped,
};

const char* verdict_name(Verdict v);  // "PASS", "REGRESSION", "ALGO-CHANGED", ...
bool verdict_fails_gate(Verdict v);
// A verdict a host busy with other work produces by itself (slower measurements): REGRESSION,
// BELOW-ROOFLINE, DIP, DRIFT. Only these become "runner busy, not judged" (judge_run.hpp).
bool verdict_load_can_cause(Verdict v);
// A verdict about the runner, not the change (BELOW-ROOFLINE): never counted against the change.
bool verdict_about_runner(Verdict v);
// A verdict on which the change is not judged here (RUNNER-DIFFERS); a paired check may judge it.
bool verdict_change_unjudged(Verdict v);

}  // namespace fabricgate::verdict
