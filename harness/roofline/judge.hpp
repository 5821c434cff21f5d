#pragma once
// The roofline's one entry point: every measured key of a run against what its hardware should do
// (ceiling.hpp), the policy's floor for that tier and size (policy.hpp), and the dip check
// (below). Needs no baseline; the gate turns the findings into verdicts.
#include <vector>

#include "core/benchmark_result.hpp"
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

// A dip needs no baseline: in the bandwidth regime a larger message must not be slower than a
// smaller one of the same series (same benchmark, other size) by more than the policy threshold
// plus a noise allowance (AMD's validation suite fails such a curve at 5 %). The noise allowance is
// noise_cv_multiple x the larger robust CV of the two launches' repetitions, so a wobble the
// repetitions themselves show is not called a dip.

struct Dip {
  const BenchmarkResult* smaller = nullptr;
  const BenchmarkResult* larger = nullptr;
  double drop = 0;       // 1 - larger/smaller
  double allowance = 0;  // threshold + noise
  std::string text;
};

std::vector<Dip> find_dips(const std::vector<BenchmarkResult>& results, const DipPolicy& policy);

// Robust CV (1.4826 x MAD / median) of a sample; 0 for fewer than 3 values.
double robust_cv(std::vector<double> values);

}  // namespace fabricgate::roofline
