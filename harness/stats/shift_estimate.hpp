#pragma once
// How far one sample sits from another, with a confidence interval that assumes no distribution:
// the Hodges-Lehmann estimator (median of all pairwise differences y_j - x_i) and Moses'
// interval between two order statistics of those differences, chosen from the null distribution
// of the Mann-Whitney U statistic (Hollander & Wolfe, Nonparametric Statistical Methods, 4.3).
// The A/B gate applies it to logarithms, so shifts become ratios B/A. Pure functions; the exact
// U distribution is used up to the same size as the rank test, the normal approximation beyond.
#include <cstddef>
#include <optional>
#include <span>

namespace fabricgate::stats {

struct ShiftEstimate {
  double estimate = 0;  // median of the pairwise differences y_j - x_i
  double low = 0;       // interval bounds; -inf / +inf when the samples are too small to give
  double high = 0;      //   the confidence asked for (then `bounded` is false)
  bool bounded = false;
  double confidence = 0;  // coverage the chosen order statistics achieve (>= the one asked)
  std::size_t order = 0;  // k: the interval is [D_(k), D_(N+1-k)] of the N sorted differences
};

// P(U <= u) for sample sizes n1, n2 when both samples come from one continuous distribution:
// exact for n1 x n2 <= 2500 (mann_whitney_exact_cdf), else normal with continuity correction.
double mann_whitney_null_cdf(std::size_t n1, std::size_t n2, double u);

// Shift of `y` relative to `x` with a two-sided interval of at least `confidence` (in (0, 1)).
// Empty samples give estimate 0 and an unbounded interval.
ShiftEstimate hodges_lehmann_shift(std::span<const double> x, std::span<const double> y,
                                   double confidence);

// Ratio y/x of two samples of positive values: exp of the shift of the logarithms, so the
// estimate and both bounds are ratios (an unbounded interval is [0, +inf]). nullopt when a
// value is not > 0 or a sample is empty.
std::optional<ShiftEstimate> hodges_lehmann_ratio_interval(std::span<const double> x,
                                                           std::span<const double> y,
                                                           double confidence);

}  // namespace fabricgate::stats
