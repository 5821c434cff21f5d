#include "harness/stats/two_levels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace fabricgate::stats {

namespace {

struct Moments {
  double mean = 0;
  double variance = 0;  // sample variance (n - 1); 0 for one value
};

Moments moments(std::span<const double> v) {
  Moments m;
  for (const double x : v) m.mean += x;
  m.mean /= static_cast<double>(v.size());
  for (const double x : v) m.variance += (x - m.mean) * (x - m.mean);
  m.variance /= static_cast<double>(v.size() > 1 ? v.size() - 1 : 1);
  return m;
}

double median_of_sorted(std::span<const double> v) {
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

double two_levels_threshold(std::size_t n) {
  // 99.9th percentile of D for the best split of n normal values, n = 4 ... 24 (the header).
  static constexpr double kByN[] = {55.7, 27.3, 16.6, 13.7, 11.6, 9.8, 8.7, 8.2, 7.6, 7.4, 7.1,
                                    6.9,  6.5,  6.5,  6.3,  6.2,  6.0, 6.0, 5.7, 5.6, 5.5};
  constexpr std::size_t kFirst = 4;
  constexpr std::size_t kCount = sizeof(kByN) / sizeof(kByN[0]);
  if (n < kFirst) return std::numeric_limits<double>::infinity();
  return n - kFirst < kCount ? kByN[n - kFirst] : kByN[kCount - 1];
}

TwoLevels find_two_levels(std::span<const double> values, double min_ratio, double min_separation,
                          std::size_t min_count) {
  std::vector<double> logs;
  for (const double v : values) {
    if (v > 0 && std::isfinite(v)) logs.push_back(std::log(v));
  }
  std::sort(logs.begin(), logs.end());
  TwoLevels out;
  min_count = std::max<std::size_t>(min_count, 1);
  if (logs.size() < 2 * min_count) return out;
  const std::span<const double> all(logs);
  double best_ss = std::numeric_limits<double>::infinity();
  std::size_t best = 0;
  for (std::size_t split = min_count; split + min_count <= logs.size(); ++split) {
    const Moments lo = moments(all.first(split));
    const Moments hi = moments(all.subspan(split));
    const double ss = lo.variance * static_cast<double>(split - 1) +
                      hi.variance * static_cast<double>(logs.size() - split - 1);
    if (ss < best_ss) {
      best_ss = ss;
      best = split;
    }
  }
  const std::span<const double> lo = all.first(best);
  const std::span<const double> hi = all.subspan(best);
  const Moments mlo = moments(lo);
  const Moments mhi = moments(hi);
  const double within = std::sqrt((mlo.variance + mhi.variance) / 2);
  out.low_level = std::exp(median_of_sorted(lo));
  out.high_level = std::exp(median_of_sorted(hi));
  out.low_count = lo.size();
  out.high_count = hi.size();
  const double gap = mhi.mean - mlo.mean;
  out.separation = within > 0 ? gap / within : std::numeric_limits<double>::infinity();
  if (min_separation < 0) min_separation = two_levels_threshold(logs.size());
  out.found =
      gap > 0 && out.high_level / out.low_level - 1 > min_ratio && out.separation >= min_separation;
  return out;
}

double state_excess_p(std::size_t x_b, std::size_t n_b, std::size_t x_a, std::size_t n_a) {
  const std::size_t total = n_a + n_b;
  const std::size_t in_state = x_a + x_b;
  const auto log_choose = [](std::size_t n, std::size_t k) {
    return std::lgamma(static_cast<double>(n) + 1) - std::lgamma(static_cast<double>(k) + 1) -
           std::lgamma(static_cast<double>(n - k) + 1);
  };
  double p = 0;
  for (std::size_t x = x_b; x <= std::min(n_b, in_state); ++x) {
    if (in_state - x > n_a) continue;
    p += std::exp(log_choose(n_b, x) + log_choose(n_a, in_state - x) - log_choose(total, in_state));
  }
  return std::min(1.0, p);
}

}  // namespace fabricgate::stats
