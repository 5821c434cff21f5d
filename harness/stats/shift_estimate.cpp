#include "harness/stats/shift_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "harness/stats/statistics.hpp"

namespace fabricgate::stats {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

}  // namespace

double mann_whitney_null_cdf(std::size_t n1, std::size_t n2, double u) {
  if (n1 == 0 || n2 == 0) return 1;
  if (n1 * n2 <= kExactMaxPairs) return mann_whitney_exact_cdf(n1, n2, u);
  const double d1 = static_cast<double>(n1);
  const double d2 = static_cast<double>(n2);
  const double sd = std::sqrt(d1 * d2 * (d1 + d2 + 1) / 12.0);
  const double z = (std::floor(u + 1e-9) + 0.5 - d1 * d2 / 2) / sd;
  return 0.5 * std::erfc(-z / std::sqrt(2.0));
}

ShiftEstimate hodges_lehmann_shift(std::span<const double> x, std::span<const double> y,
                                   double confidence) {
  ShiftEstimate s;
  s.low = -kInfinity;
  s.high = kInfinity;
  if (x.empty() || y.empty()) return s;
  std::vector<double> d;
  d.reserve(x.size() * y.size());
  for (const double b : y) {
    for (const double a : x) d.push_back(b - a);
  }
  std::sort(d.begin(), d.end());
  const std::size_t n = d.size();
  s.estimate = n % 2 == 1 ? d[n / 2] : 0.5 * (d[n / 2 - 1] + d[n / 2]);
  // [D_(k), D_(N+1-k)] covers the true shift with probability 1 - 2 P(U <= k-1): take the largest
  // k whose tail fits into (1 - confidence) / 2. P(U <= k-1) grows with k, so scan up from 1.
  const double tail = (1 - confidence) / 2;
  std::size_t k = 0;
  double tail_at_k = 0;
  for (std::size_t candidate = 1; 2 * candidate <= n + 1; ++candidate) {
    const double p = mann_whitney_null_cdf(x.size(), y.size(), static_cast<double>(candidate - 1));
    if (p > tail) break;
    k = candidate;
    tail_at_k = p;
  }
  if (k == 0) return s;  // even the outermost differences do not reach the confidence asked
  s.bounded = true;
  s.order = k;
  s.low = d[k - 1];
  s.high = d[n - k];
  s.confidence = 1 - 2 * tail_at_k;
  return s;
}

std::optional<ShiftEstimate> hodges_lehmann_ratio_interval(std::span<const double> x,
                                                           std::span<const double> y,
                                                           double confidence) {
  if (x.empty() || y.empty()) return std::nullopt;
  std::vector<double> lx;
  std::vector<double> ly;
  lx.reserve(x.size());
  ly.reserve(y.size());
  for (const double v : x) {
    if (!(v > 0) || !std::isfinite(v)) return std::nullopt;
    lx.push_back(std::log(v));
  }
  for (const double v : y) {
    if (!(v > 0) || !std::isfinite(v)) return std::nullopt;
    ly.push_back(std::log(v));
  }
  ShiftEstimate s = hodges_lehmann_shift(lx, ly, confidence);
  s.estimate = std::exp(s.estimate);
  s.low = s.bounded ? std::exp(s.low) : 0;
  s.high = s.bounded ? std::exp(s.high) : kInfinity;
  return s;
}

}  // namespace fabricgate::stats
