#include "harness/stats/signed_rank_interval.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace fabricgate::stats {

namespace {

constexpr std::size_t kMaxExact = 1000;

// P(T+ = s) for s = 0 .. n(n+1)/2: the number of subsets of {1..n} summing to s, over 2^n.
// Counted in doubles scaled by 1/2 per rank, so nothing overflows for any n used here.
std::vector<double> signed_rank_pmf(std::size_t n) {
  const std::size_t top = n * (n + 1) / 2;
  std::vector<double> p(top + 1, 0.0);
  p[0] = 1.0;
  std::size_t reach = 0;
  for (std::size_t r = 1; r <= n; ++r) {
    reach += r;
    for (std::size_t s = reach + 1; s-- > 0;) p[s] = 0.5 * (p[s] + (s >= r ? p[s - r] : 0.0));
  }
  return p;
}

}  // namespace

double signed_rank_null_cdf(std::size_t n, long t) {
  if (t < 0) return 0.0;
  const std::vector<double> p = signed_rank_pmf(n);
  double sum = 0;
  for (std::size_t s = 0; s < p.size() && static_cast<long>(s) <= t; ++s) sum += p[s];
  return std::min(1.0, sum);
}

std::size_t signed_rank_min_samples(double confidence) {
  // The widest interval, [min, max] of the Walsh averages, misses with probability 2 * 2^-n.
  std::size_t n = 1;
  while (2.0 * std::pow(0.5, static_cast<double>(n)) > 1 - confidence && n < kMaxExact) ++n;
  return n;
}

CentreEstimate hodges_lehmann_centre(std::span<const double> d, double confidence) {
  CentreEstimate out;
  out.low = -std::numeric_limits<double>::infinity();
  out.high = std::numeric_limits<double>::infinity();
  const std::size_t n = d.size();
  if (n == 0) return out;
  std::vector<double> walsh;
  walsh.reserve(n * (n + 1) / 2);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i; j < n; ++j) walsh.push_back(0.5 * (d[i] + d[j]));
  std::sort(walsh.begin(), walsh.end());
  const std::size_t m = walsh.size();
  out.estimate = m % 2 == 1 ? walsh[m / 2] : 0.5 * (walsh[m / 2 - 1] + walsh[m / 2]);
  if (n > kMaxExact) return out;
  // The largest k with P(T+ <= k) <= alpha / 2; the interval is [W_(k+1), W_(m-k)].
  const double half_alpha = (1 - confidence) / 2;
  const std::vector<double> p = signed_rank_pmf(n);
  double cdf = 0;
  long k = -1;
  for (std::size_t s = 0; s < p.size(); ++s) {
    if (cdf + p[s] > half_alpha) break;
    cdf += p[s];
    k = static_cast<long>(s);
  }
  if (k < 0) return out;  // even [min, max] covers less than asked
  const auto lo = static_cast<std::size_t>(k);
  out.low = walsh[lo];
  out.high = walsh[m - 1 - lo];
  out.bounded = true;
  out.confidence = 1 - 2 * cdf;
  return out;
}

}  // namespace fabricgate::stats
