#pragma once
// The A/B gate's interval of B/A for one key (docs/AB-GATE.md): the repetitions' pooled interval
// (Hodges-Lehmann, shift_estimate.hpp), the pairs' own interval (their log median ratios: Student's
// t at first, the signed-rank interval once there are enough pairs), the hull of the two, and the
// performance view (> 1 = B better). Pure functions on plain numbers.
#include <vector>

#include "harness/stats/shift_estimate.hpp"

namespace fabricgate::ab {

struct AbInterval {
  double estimate = 1;
  double low = 0;
  double high = 0;
  bool bounded = false;   // false: too few samples for the confidence asked
  double confidence = 0;  // achieved coverage when bounded
  // The pairs' interval: true for the signed-rank (Hodges-Lehmann) one, false for Student's t.
  bool rank_based = false;
};

// The pairs' log ratios (the positive, finite ones), their mean and sum of squared deviations:
// what the pairs' interval and the sequential design's pairs-to-decide projection both read.
struct PairLogs {
  std::vector<double> logs;
  double mean = 0;
  double ss = 0;
};
PairLogs pair_logs(const std::vector<double>& pair_ratios);

AbInterval to_interval(const stats::ShiftEstimate& s);

// B/A from the pairs alone, at `confidence` (ab_interval.cpp says which interval and why).
AbInterval paired_interval(const std::vector<double>& pair_ratios, double confidence);

// The key's interval covers both: the repetitions' (pooled, distribution-free) and the pairs'.
AbInterval hull(const AbInterval& pooled, const AbInterval& pairs);

// Performance (> 1 = B better) from the ratio B/A of the metric.
AbInterval performance_of(const AbInterval& ratio, bool higher_better);

}  // namespace fabricgate::ab
