#pragma once
// Robust summaries, Student's t distribution, the one-sided Mann-Whitney U test and multiple-
// comparison control used by the gate. Pure functions on plain vectors: unit-tested against
// hand-computed cases.
#include <cstddef>
#include <span>
#include <vector>

namespace fabricgate::stats {

double median(std::span<const double> values);  // 0 for an empty input

// Nearest-rank percentile (the value at rank ceil(q n) of the sorted values, q in (0, 1]); the
// per-rank tables use the same definition. 0 for an empty input.
double nearest_rank_percentile(std::span<const double> values, double q);

// p99 / p50 (nearest rank) of one launch's repetitions: its tail against its typical value. 0 for
// an empty input or a zero median.
double p99_over_p50(std::span<const double> values);

// 1.4826 x MAD / |median|: the coefficient of variation of a normal sample, but not dragged by
// the one outlier every CPU run has. 0 when the median is 0 or there are < 2 values.
double robust_relative_spread(std::span<const double> values);

struct RankTestResult {
  double u = 0;  // U statistic of `lower`: pairs (x in lower, y in higher) with x > y, ties 1/2
  double p_value = 1;  // P(U <= u) under "both samples come from one distribution"
  bool exact = false;  // exact null distribution (no ties, small samples) vs normal approximation
};

// One-sided Mann-Whitney U test of H1: values in `lower` tend to be smaller than in `higher`.
// Needs at least one value in each sample (p = 1 otherwise).
RankTestResult mann_whitney_less(std::span<const double> lower, std::span<const double> higher);

// Exact null CDF P(U <= u) for sample sizes n1, n2 without ties (cached per size pair).
double mann_whitney_exact_cdf(std::size_t n1, std::size_t n2, double u);

// Exact tables are cheap up to this many (n1 x n2) pairs; beyond, the normal approximation is
// accurate to well under the alpha we gate at.
inline constexpr std::size_t kExactMaxPairs = 2500;

// Adjusted p-values in input order. Holm controls the family-wise error rate; Benjamini-Hochberg
// the false discovery rate (less conservative when many sizes regress together).
std::vector<double> holm_adjust(std::span<const double> p_values);
std::vector<double> benjamini_hochberg_adjust(std::span<const double> p_values);

// Student's t distribution, for the gate's prediction interval over launch medians
// (launch_band.hpp). A handful of baseline launches is all a gate ever has, so the normal
// quantile (1.645 at 95 %) would understate the band badly at n = 3..5 (t_2 = 2.92).

// P(T <= t) for T ~ t(dof), dof > 0.
double student_t_cdf(double t, double dof);

// The t with P(T <= t) = p, for p in (0, 1), dof > 0 (bisection on the CDF: 1e-12 relative).
double student_t_quantile(double p, double dof);

}  // namespace fabricgate::stats
