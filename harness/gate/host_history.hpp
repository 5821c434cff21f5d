#pragma once
// The judged host's own earlier launches, read from the results store: the change question's
// reference once the host has enough of them (harness/gate/README.md "Two questions").
// "Did the change make this runner slower than it was?" is answered against the runner's own
// level; the fleet's level only answers "is this runner like the fleet?". A host GPUs of one SKU
// that sit 25 % under the fleet on one key is judged around its own level here, so it fails only
// when it gets slower than it was.
//
// Which launches stand for the host's level: runs of the same host, platform, suite and scenario
// that started before the judged run, per key only where the recorded verdict may join a
// baseline's rolling window (the verdict table's `joins_window`: PASS, IMPROVEMENT, NOISY; the
// same rule `baseline update` uses), or the run was recorded without a comparison. A REGRESSION,
// DRIFT or any other failing launch never joins: a host that regressed keeps failing against the
// level it had instead of teaching itself the slower one. Nor do AMBIGUOUS, JITTER, UNSTABLE or
// NEW launches: one slow spell that was not confirmed would otherwise widen the level until a
// real loss of that size passes. Nor do launches of a busy runner, recorded as RUNNER-BUSY
// (outcome.hpp kBusyLaunchVerdict).
//
// RUNNER-DIFFERS launches (a host outside the fleet, not judged) join only while the judged run's
// software equals the baseline's: that is how a host that differs from the fleet gets a level of
// its own. When the software changed (a new NCCL, OMPI_MCA_btl=tcp), earlier RUNNER-DIFFERS
// launches cannot stand for the host: nothing recorded says whether they ran the old software or
// the changed one, and a fall-back judged against its own unjudged launches would pass.
#include <array>
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "harness/gate/drift.hpp"
#include "harness/model/run_record.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::gate {

struct HostLaunch {
  std::string run_id;
  std::string session_id;  // "" for a legacy run: it counts as a session of its own
  double value = 0;
};

struct HostHistory {
  std::string host_id;
  std::string source;    // the store, for messages
  std::size_t runs = 0;  // runs of this host that contributed at least one launch
  // key -> launches of each metric (indexed by Metric), oldest first
  std::map<std::string, std::array<std::vector<HostLaunch>, 3>> launches;

  // nullptr when the key has no launch of that metric.
  const std::vector<HostLaunch>* of(const std::string& key, verdict::Metric metric) const;
};

// A verdict name as the store keeps it: true when a launch with it may stand for the host's level
// (above). `software_as_baseline`: the judged run's software equals the baseline's.
bool verdict_keeps_host_level(const std::string& verdict, bool software_as_baseline);

// The host's launches in `history` that may stand for its level when `run` is judged: same host
// (both ids known), same suite and scenario (when both are recorded), not `run` itself.
HostHistory host_history_from(const RunHistory& history, const RunRecord& run,
                              bool software_as_baseline);

}  // namespace fabricgate::gate
