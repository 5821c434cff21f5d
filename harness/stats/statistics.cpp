#include "harness/stats/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <numeric>
#include <utility>

namespace fabricgate::stats {

double median(std::span<const double> values) {
  if (values.empty()) return 0;
  std::vector<double> v(values.begin(), values.end());
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double upper = v[mid];
  if (v.size() % 2 == 1) return upper;
  const double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
  return 0.5 * (lower + upper);
}

double nearest_rank_percentile(std::span<const double> values, double q) {
  if (values.empty()) return 0;
  std::vector<double> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end());
  const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted.size())));
  return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

double p99_over_p50(std::span<const double> values) {
  const double p50 = nearest_rank_percentile(values, 0.50);
  return p50 > 0 ? nearest_rank_percentile(values, 0.99) / p50 : 0;
}

double robust_relative_spread(std::span<const double> values) {
  if (values.size() < 2) return 0;
  const double m = median(values);
  if (m == 0) return 0;
  std::vector<double> deviations;
  deviations.reserve(values.size());
  for (const double v : values) deviations.push_back(std::fabs(v - m));
  return 1.4826 * median(deviations) / std::fabs(m);
}

namespace {

// Probability mass of U for sizes (n1, n2): coefficients of [n1+n2 choose n1]_q / C(n1+n2, n1).
// Built as prod_{i=1..m} (1 - q^(n-m+i)) / (1 - q^i); after each step the polynomial is the
// q-binomial [n-m+i choose i]_q, so all intermediate coefficients stay small and positive.
std::vector<double> exact_null_cdf(std::size_t n1, std::size_t n2) {
  const std::size_t m = std::min(n1, n2);
  const std::size_t n = n1 + n2;
  const std::size_t length = n1 * n2 + 1;
  std::vector<double> poly(length, 0.0);
  poly[0] = 1.0;
  for (std::size_t i = 1; i <= m; ++i) {
    const std::size_t up = n - m + i;  // multiply by (1 - q^up)
    for (std::size_t k = length; k-- > up;) poly[k] -= poly[k - up];
    for (std::size_t k = i; k < length; ++k) poly[k] += poly[k - i];  // divide by (1 - q^i)
  }
  const double total = std::accumulate(poly.begin(), poly.end(), 0.0);
  std::vector<double> cdf(length);
  double running = 0;
  for (std::size_t k = 0; k < length; ++k) {
    running += poly[k] / total;
    cdf[k] = std::min(1.0, running);
  }
  return cdf;
}

const std::vector<double>& cached_cdf(std::size_t n1, std::size_t n2) {
  static std::mutex lock;
  static std::map<std::pair<std::size_t, std::size_t>, std::vector<double>> cache;
  const std::lock_guard<std::mutex> guard(lock);
  auto key = std::minmax(n1, n2);  // U's distribution is symmetric in the two sizes
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, exact_null_cdf(key.first, key.second)).first;
  return it->second;
}

}  // namespace

double mann_whitney_exact_cdf(std::size_t n1, std::size_t n2, double u) {
  if (u < 0) return 0;
  const std::vector<double>& cdf = cached_cdf(n1, n2);
  const auto index = static_cast<std::size_t>(std::floor(u + 1e-9));
  return index >= cdf.size() ? 1.0 : cdf[index];
}

RankTestResult mann_whitney_less(std::span<const double> lower, std::span<const double> higher) {
  RankTestResult result;
  const std::size_t n1 = lower.size();
  const std::size_t n2 = higher.size();
  if (n1 == 0 || n2 == 0) return result;
  // Rank the pooled sample (mid-ranks for ties); remember which sample each value came from.
  std::vector<std::pair<double, bool>> pooled;
  pooled.reserve(n1 + n2);
  for (const double v : lower) pooled.emplace_back(v, true);
  for (const double v : higher) pooled.emplace_back(v, false);
  std::sort(pooled.begin(), pooled.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  const std::size_t n = pooled.size();
  double rank_sum_lower = 0;
  double tie_term = 0;  // sum of (t^3 - t) over tie groups
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j < n && pooled[j].first == pooled[i].first) ++j;
    const double mid_rank = 0.5 * static_cast<double>(i + 1 + j);  // mean of ranks i+1..j
    for (std::size_t k = i; k < j; ++k) {
      if (pooled[k].second) rank_sum_lower += mid_rank;
    }
    const auto t = static_cast<double>(j - i);
    tie_term += t * t * t - t;
    i = j;
  }
  const auto d1 = static_cast<double>(n1);
  const auto d2 = static_cast<double>(n2);
  result.u = rank_sum_lower - d1 * (d1 + 1) / 2;
  if (tie_term == 0 && n1 * n2 <= kExactMaxPairs) {
    result.exact = true;
    result.p_value = mann_whitney_exact_cdf(n1, n2, result.u);
    return result;
  }
  const double dn = d1 + d2;
  const double variance = d1 * d2 / 12.0 * ((dn + 1) - tie_term / (dn * (dn - 1)));
  if (variance <= 0) return result;  // every value equal: no evidence either way
  const double z = (result.u + 0.5 - d1 * d2 / 2) / std::sqrt(variance);  // continuity correction
  result.p_value = std::min(1.0, 0.5 * std::erfc(-z / std::sqrt(2.0)));
  return result;
}

namespace {
std::vector<std::size_t> ascending_order(std::span<const double> p) {
  std::vector<std::size_t> order(p.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
  return order;
}
}  // namespace

std::vector<double> holm_adjust(std::span<const double> p) {
  const std::size_t m = p.size();
  std::vector<double> adjusted(m);
  double running_max = 0;
  const auto order = ascending_order(p);
  for (std::size_t rank = 0; rank < m; ++rank) {
    const std::size_t i = order[rank];
    running_max = std::max(running_max, std::min(1.0, static_cast<double>(m - rank) * p[i]));
    adjusted[i] = running_max;
  }
  return adjusted;
}

std::vector<double> benjamini_hochberg_adjust(std::span<const double> p) {
  const std::size_t m = p.size();
  std::vector<double> adjusted(m);
  double running_min = 1;
  const auto order = ascending_order(p);
  for (std::size_t rank = m; rank-- > 0;) {
    const std::size_t i = order[rank];
    running_min =
        std::min(running_min, p[i] * static_cast<double>(m) / static_cast<double>(rank + 1));
    adjusted[i] = running_min;
  }
  return adjusted;
}

namespace {

// Continued fraction of the regularised incomplete beta function (modified Lentz), valid for
// x < (a + 1) / (a + b + 2); the caller uses the symmetry I_x(a,b) = 1 - I_{1-x}(b,a) otherwise.
double beta_continued_fraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300;
  constexpr double kEps = 1e-15;
  double c = 1;
  double d = 1 - (a + b) * x / (a + 1);
  if (std::fabs(d) < kTiny) d = kTiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 500; ++m) {
    const double dm = m;
    const double even = dm * (b - dm) * x / ((a + 2 * dm - 1) * (a + 2 * dm));
    d = 1 + even * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1 + even / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    h *= d * c;
    const double odd = -(a + dm) * (a + b + dm) * x / ((a + 2 * dm) * (a + 2 * dm + 1));
    d = 1 + odd * d;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = 1 + odd / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const double step = d * c;
    h *= step;
    if (std::fabs(step - 1) < kEps) break;
  }
  return h;
}

double regularized_incomplete_beta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double log_front =
      std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  const double front = std::exp(log_front);
  if (x < (a + 1) / (a + b + 2)) return front * beta_continued_fraction(a, b, x) / a;
  return 1 - front * beta_continued_fraction(b, a, 1 - x) / b;
}

}  // namespace

double student_t_cdf(double t, double dof) {
  const double x = dof / (dof + t * t);
  const double tail = 0.5 * regularized_incomplete_beta(dof / 2, 0.5, x);  // P(T > |t|)
  return t >= 0 ? 1 - tail : tail;
}

double student_t_quantile(double p, double dof) {
  if (p == 0.5) return 0;
  if (p < 0.5) return -student_t_quantile(1 - p, dof);
  double lo = 0;
  double hi = 1;
  while (student_t_cdf(hi, dof) < p && hi < 1e12) hi *= 2;  // t(1) at 1 - 1e-9 is ~3e8
  for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (student_t_cdf(mid, dof) < p ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace fabricgate::stats
