#pragma once
// The roofline's findings (harness/roofline) as verdicts: BELOW-ROOFLINE and DIP fail the gate
// with or without a baseline. A key already failing for another reason keeps that verdict and
// carries the finding as a note; NOT-PHYSICAL is a note (P10), never a failure.
#include "harness/model/run_record.hpp"
#include "harness/roofline/policy.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::gate {

// `floor_fails` false (--gate change): a key under its floor keeps its verdict and carries the
// finding as a warning note; the runner verdict lists it (runner_split.hpp). DIP is unchanged.
void add_roofline_verdicts(const RunRecord& run, const roofline::RooflinePolicy& policy,
                           verdict::Comparison& c, bool floor_fails = true);

}  // namespace fabricgate::gate
