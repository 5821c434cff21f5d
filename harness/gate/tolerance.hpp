#pragma once
// Which size class a message falls in, and the tolerance applied to one baseline entry (the run
// gate's: max(static floor, prediction band of launch medians), launch_band.hpp).
#include <cstdint>

#include "harness/model/baseline.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::gate {

// The A/B gate's (ab_compare.cpp) relative spread of one side: the larger of the pooled
// repetitions' robust CV and half the relative range of the per-launch medians.
double baseline_relative_spread(const MetricBaseline& m);

struct ToleranceDecision {
  double static_tolerance = 0;  // floor
  double spread = 0;            // standard deviation of log launch medians
  double tolerance = 0;
};

ToleranceDecision tolerance_for(const TolerancePolicy& policy, const BaselineEntry& entry,
                                const MetricBaseline& metric);

// The metric the gate judges when the baseline says `entry.metric`, before P04/P15 overrides.
verdict::Metric metric_from_name(const std::string& name);

// Which metric a new baseline entry is judged on: latency for classes judged on latency (P15),
// busbw for collectives, algbw for the rest (never an average over sizes, P03).
verdict::Metric default_metric(const TolerancePolicy& policy, std::uint64_t bytes, bool has_busbw,
                               bool has_algbw);

}  // namespace fabricgate::gate
