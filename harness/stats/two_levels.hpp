#pragma once
// Two states in one side: launches of a library that sometimes runs on a fast path and sometimes
// not (TensorRT-LLM #17160: 2 of 5 runs fast, CV 26 %) have a median that says "no change" while
// every launch is either fast or slow. Here the launch medians are split into the two clusters that
// leave the least spread inside them (1-D two-means on logarithms, exact over every split of the
// sorted values), and called two states only when the clusters are far apart twice over:
//   - their levels differ by more than `min_ratio` (the tolerance: a difference nobody gates is
//     not a second state), and
//   - Ashman's D = |m1 - m2| / sqrt((s1^2 + s2^2) / 2) (sample SDs of the clusters) reaches
//     two_levels_threshold(n): the gap is wide against the spread inside each cluster. The best
//     split of a unimodal (normal) side also leaves a D, near 3 at any n but with a long tail at
//     small n (two clusters of two have one degree of freedom each), so the threshold is the
//     99.9th percentile of that D, simulated per n (40,000 normal samples each): 55.7 at n = 4,
//     11.6 at 8, 8.7 at 10, 5.5 from 24 on. A unimodal side is then flagged in at most ~0.1 % of
//     draws whatever its spread; a clean two-state side (levels 30 % apart, 1-3 % noise) has D
//     above 10 from n = 5.
// Each cluster needs `min_count` launches, so one slow launch is an outlier, not a state.
// Pure; knows nothing of keys.
#include <cstddef>
#include <span>

namespace fabricgate::stats {

struct TwoLevels {
  bool found = false;
  double low_level = 0;  // median of the lower cluster (in the values' unit)
  double high_level = 0;
  std::size_t low_count = 0;
  std::size_t high_count = 0;
  double separation = 0;  // Ashman's D on the logarithms (infinite when both clusters are flat)
};

inline constexpr std::size_t kTwoLevelsMinCount = 2;

// The D a split of n unimodal values must reach (see above); n >= 4.
double two_levels_threshold(std::size_t n);

// `values` must be > 0 (others are ignored). Fewer than 2 x min_count values: never found.
// `min_separation` < 0: two_levels_threshold(number of values).
TwoLevels find_two_levels(std::span<const double> values, double min_ratio,
                          double min_separation = -1, std::size_t min_count = kTwoLevelsMinCount);

// One-sided Fisher exact test: P(X >= x_b) for X hypergeometric, the launches of B at a level
// (x_b of n_b) against A's (x_a of n_a) when both sides share one rate. Small: B is in that
// state more often than A. A side that merely shows a state A also has (the CPU box's occasional
// slow launch, drawn into B and not into A) does not reach it.
double state_excess_p(std::size_t x_b, std::size_t n_b, std::size_t x_a, std::size_t n_a);

}  // namespace fabricgate::stats
