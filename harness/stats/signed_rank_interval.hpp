#pragma once
// The centre of one sample of differences with a distribution-free interval: the one-sample
// Hodges-Lehmann estimator (the median of the n(n+1)/2 Walsh averages (d_i + d_j) / 2, i <= j) and
// Tukey's interval between two order statistics of those averages, picked from the exact null
// distribution of Wilcoxon's signed-rank statistic (Hollander & Wolfe, Nonparametric Statistical
// Methods, 3.2). It assumes only that the differences are symmetric about their centre, so one
// wild difference moves it by one order statistic, where it widens Student's t interval by its
// whole size. With n differences the narrowest two-sided interval has confidence 1 - 2^(1-n):
// below that many, the interval asked for does not exist (`bounded` false).
#include <cstddef>
#include <span>

namespace fabricgate::stats {

struct CentreEstimate {
  double estimate = 0;  // median of the Walsh averages
  double low = 0;       // -inf / +inf when n is too small for the confidence asked
  double high = 0;
  bool bounded = false;
  double confidence = 0;  // coverage achieved (>= the one asked) when bounded
};

// P(T+ <= t) for n differences under the null (symmetric about 0, no ties): exact, by counting
// the subsets of ranks 1..n by their sum.
double signed_rank_null_cdf(std::size_t n, long t);

// The smallest number of differences for which an interval of `confidence` exists.
std::size_t signed_rank_min_samples(double confidence);

// Centre of `d` with a two-sided interval of at least `confidence` (in (0, 1)). Exact up to
// n = 1000 (the A/B gate has at most a few hundred pairs); larger samples are refused (unbounded).
CentreEstimate hodges_lehmann_centre(std::span<const double> d, double confidence);

}  // namespace fabricgate::stats
