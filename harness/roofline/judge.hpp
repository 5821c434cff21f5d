#pragma once
// The roofline's one entry point: every measured key of a run against what its hardware should do
// (ceiling.hpp), the policy's floor for that tier and size (policy.hpp), and the dip check
// (dip_check.hpp). Needs no baseline; the gate turns the findings into verdicts.
#include <vector>

#include "harness/model/run_record.hpp"
#include "harness/roofline/finding.hpp"
#include "harness/roofline/hardware_facts.hpp"
#include "harness/roofline/policy.hpp"

namespace fabricgate::roofline {

// One finding per key the roofline describes (ceiling_for), in the run's order; the facts from
// the run's own fingerprint.
std::vector<RooflineFinding> judge_keys(const RunRecord& run, const RooflinePolicy& policy);

// The same with the hardware facts given (an import told what the hardware is).
std::vector<RooflineFinding> judge_keys(const RunRecord& run, const HardwareFacts& hardware,
                                        const RooflinePolicy& policy);

}  // namespace fabricgate::roofline
