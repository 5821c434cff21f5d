#pragma once
// A dip needs no baseline: in the bandwidth regime a larger message must not be slower than a
// smaller one of the same series (same benchmark, other size) by more than the policy threshold
// plus a noise allowance (AMD's validation suite fails such a curve at 5 %). The noise allowance is
// noise_cv_multiple x the larger robust CV of the two launches' repetitions, so a wobble the
// repetitions themselves show is not called a dip.
#include <vector>

#include "core/benchmark_result.hpp"
#include "harness/roofline/finding.hpp"
#include "harness/roofline/policy.hpp"

namespace fabricgate::roofline {

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
