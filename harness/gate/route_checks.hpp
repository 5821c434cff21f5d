#pragma once
// What route the bytes took (network, transports, GDRDMA, libfabric provider) and what NCCL
// chose (algorithm, protocol, channels), observed in a run and compared with the baseline's
// expectation (P05, P06, P19). Shared by the gate and by baseline creation so both read a run
// the same way.
#include <string>
#include <vector>

#include "harness/model/baseline.hpp"
#include "harness/model/run_record.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::gate {

// Per-key transport: the result's own `transport` when present; otherwise the run capture for
// NCCL results (the capture describes NCCL); otherwise unknown. The provider is always known.
ExpectedTransport observed_transport(const RunRecord& run, const BenchmarkResult& result);

ExpectedChoice observed_choice(const Choice& choice);

// Differences that make a key TRANSPORT-CHANGED; empty when equal or when either side is unknown
// (then `unknown_note` says so, if the baseline knew).
std::vector<verdict::Change> transport_changes(const ExpectedTransport& before,
                                               const ExpectedTransport& after,
                                               std::string& unknown_note);

// Algorithm or protocol set differences (ALGO-CHANGED); channel-count changes go to
// `channel_changes` (reported as a warning: NCCL scales channels with load, it is not a route
// change).
std::vector<verdict::Change> choice_changes(const ExpectedChoice& before,
                                            const ExpectedChoice& after,
                                            std::vector<verdict::Change>& channel_changes);

std::string join_set(const std::set<std::string>& items);  // "{Ring, Tree}" style, "{}" when empty

}  // namespace fabricgate::gate
