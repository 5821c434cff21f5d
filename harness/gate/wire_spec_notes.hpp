#pragma once
// P10: busbw against the NVLink wire spec, for single-node NCCL collectives. Only a ring's busbw
// describes the wire; above the spec the captured algorithm (NVLS, trees, CollNet) explains it.
#include "harness/model/run_record.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::gate {

void add_wire_spec_notes(const RunRecord& run, verdict::Comparison& c);

}  // namespace fabricgate::gate
