#include "harness/gate/change_points.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "harness/gate/shift_estimate.hpp"
#include "harness/gate/statistics.hpp"

namespace fabricgate::gate {

namespace {

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, bound) by rejection: no modulo bias, no implementation-defined distribution.
  std::size_t below(std::size_t bound) {
    const std::uint64_t b = bound;
    const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % b;
    std::uint64_t r = next();
    while (r >= limit) r = next();
    return static_cast<std::size_t>(r % b);
  }

 private:
  std::uint64_t state_;
};

struct BestSplit {
  std::size_t tau = 0;  // absolute index of the first point after the split
  double q = -1;
};

// max over tau of Q(tau) for the segment `v` (relative indices), O(n^2): the within-left sums grow
// by one row per point, the within-right sums shrink likewise, the cross sum is what remains.
BestSplit best_split(std::span<const double> v, std::size_t min_segment, std::vector<double>& prefix,
                     std::vector<double>& suffix) {
  const std::size_t n = v.size();
  prefix.assign(n + 1, 0);  // prefix[k]: sum over i < j < k of |v_i - v_j|
  for (std::size_t k = 1; k < n; ++k) {
    double row = 0;
    for (std::size_t i = 0; i < k; ++i) row += std::abs(v[i] - v[k]);
    prefix[k + 1] = prefix[k] + row;
  }
  suffix.assign(n + 1, 0);  // suffix[k]: sum over k <= i < j < n
  for (std::size_t k = n - 1; k-- > 0;) {
    double row = 0;
    for (std::size_t j = k + 1; j < n; ++j) row += std::abs(v[k] - v[j]);
    suffix[k] = suffix[k + 1] + row;
  }
  const double total = prefix[n];
  BestSplit best;
  for (std::size_t tau = min_segment; tau + min_segment <= n; ++tau) {
    const double m = static_cast<double>(tau);
    const double r = static_cast<double>(n - tau);
    const double cross = total - prefix[tau] - suffix[tau];
    const double within_left = m > 1 ? prefix[tau] * 2 / (m * (m - 1)) : 0;
    const double within_right = r > 1 ? suffix[tau] * 2 / (r * (r - 1)) : 0;
    const double e = 2 * cross / (m * r) - within_left - within_right;
    const double q = e * m * r / (m + r);
    if (q > best.q) best = {tau, q};
  }
  return best;
}

struct Candidate {
  std::size_t begin = 0;
  std::size_t end = 0;
  BestSplit split;
};

double median_of(std::span<const double> v) {
  std::vector<double> copy(v.begin(), v.end());
  return median(copy);
}

}  // namespace

std::uint64_t seed_for(std::uint64_t base, std::span<const char> name) {
  std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a 64
  for (const char c : name) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return base ^ h;
}

std::vector<ChangePoint> find_change_points(std::span<const double> series, const ChangePointOptions& o) {
  const std::size_t min_segment = std::max<std::size_t>(o.min_segment, 1);
  std::vector<std::size_t> cuts{0, series.size()};  // segment bounds, sorted
  std::vector<ChangePoint> found;
  SplitMix64 rng(o.seed);
  std::vector<double> prefix;
  std::vector<double> suffix;
  std::vector<double> shuffled;
  while (found.size() < o.max_change_points) {
    // The strongest split over all current segments (bisection, as in the paper).
    Candidate best;
    for (std::size_t s = 0; s + 1 < cuts.size(); ++s) {
      const std::size_t b = cuts[s];
      const std::size_t e = cuts[s + 1];
      if (e - b < 2 * min_segment) continue;
      BestSplit split = best_split(series.subspan(b, e - b), min_segment, prefix, suffix);
      split.tau += b;
      if (split.q > best.split.q) best = {b, e, split};
    }
    if (best.split.q <= 0) break;
    // Permutation test of that segment: how often does a shuffled segment split as strongly?
    // Stops as soon as the p-value can no longer reach alpha (most "no change" keys need a few
    // shuffles, not all of them).
    const std::size_t stop_after = static_cast<std::size_t>(std::floor(o.alpha * static_cast<double>(o.permutations + 1)));
    std::size_t exceed = 0;
    std::size_t run = 0;
    shuffled.assign(series.begin() + static_cast<std::ptrdiff_t>(best.begin),
                    series.begin() + static_cast<std::ptrdiff_t>(best.end));
    while (run < o.permutations && exceed < stop_after) {
      for (std::size_t i = shuffled.size() - 1; i > 0; --i) std::swap(shuffled[i], shuffled[rng.below(i + 1)]);
      if (best_split(shuffled, min_segment, prefix, suffix).q >= best.split.q) ++exceed;
      ++run;
    }
    const double p = static_cast<double>(exceed + 1) / static_cast<double>(run + 1);
    if (exceed >= stop_after || p > o.alpha) break;
    ChangePoint cp;
    cp.index = best.split.tau;
    cp.statistic = best.split.q;
    cp.p_value = p;
    found.push_back(cp);
    cuts.insert(std::upper_bound(cuts.begin(), cuts.end(), cp.index), cp.index);
  }
  std::sort(found.begin(), found.end(), [](const ChangePoint& a, const ChangePoint& b) { return a.index < b.index; });
  // Sizes from the final segmentation: each step between its two neighbouring levels.
  for (ChangePoint& cp : found) {
    const auto at = std::lower_bound(cuts.begin(), cuts.end(), cp.index);
    const std::size_t begin = *(at - 1);
    const std::size_t end = *(at + 1);
    const auto before = series.subspan(begin, cp.index - begin);
    const auto after = series.subspan(cp.index, end - cp.index);
    cp.before_median = median_of(before);
    cp.after_median = median_of(after);
    cp.ratio = cp.before_median != 0 ? cp.after_median / cp.before_median : 1;
    if (const auto hl = hodges_lehmann_ratio_interval(before, after, o.interval_confidence)) {
      cp.ratio = hl->estimate;
      cp.ratio_low = hl->low;
      cp.ratio_high = hl->high;
      cp.interval_bounded = hl->bounded;
    } else {
      cp.ratio_high = std::numeric_limits<double>::infinity();
    }
  }
  return found;
}

}  // namespace fabricgate::gate
