#include "harness/stats/binomial_bound.hpp"

#include <cmath>

namespace fabricgate::stats {

double binomial_cdf(std::size_t k, std::size_t n, double p) {
  if (k >= n) return 1;
  if (p <= 0) return 1;
  if (p >= 1) return 0;
  // Terms in log space: n can be thousands of launches, where C(n, i) overflows a double.
  const double lp = std::log(p);
  const double lq = std::log1p(-p);
  const double ln_fact_n = std::lgamma(static_cast<double>(n) + 1);
  double sum = 0;
  for (std::size_t i = 0; i <= k; ++i) {
    const double di = static_cast<double>(i);
    const double dn = static_cast<double>(n);
    sum += std::exp(ln_fact_n - std::lgamma(di + 1) - std::lgamma(dn - di + 1) + di * lp +
                    (dn - di) * lq);
  }
  return sum < 1 ? sum : 1;
}

double binomial_upper_bound(std::size_t failures, std::size_t trials, double confidence) {
  if (trials == 0 || failures >= trials) return 1;
  const double target = 1 - confidence;
  // The CDF falls monotonically in p: bisection to well below any rate a report prints.
  double lo = 0;
  double hi = 1;
  for (int i = 0; i < 200 && hi - lo > 1e-14; ++i) {
    const double mid = (lo + hi) / 2;
    if (binomial_cdf(failures, trials, mid) > target)
      lo = mid;
    else
      hi = mid;
  }
  return (lo + hi) / 2;
}

}  // namespace fabricgate::stats
