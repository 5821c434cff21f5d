#include "harness/stats/energy_split.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace fabricgate::stats {

namespace {

// Q over the admissible splits from within_left (prefix) and within_right (suffix) sums: the one
// formula both ways share, so that they differ only in how the sums were added up.
BestSplit best_of(std::span<const double> prefix, std::span<const double> suffix, std::size_t n,
                  std::size_t min_segment) {
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

}  // namespace

BestSplit best_split_quadratic(std::span<const double> v, std::size_t min_segment) {
  const std::size_t n = v.size();
  std::vector<double> prefix(n + 1, 0);  // prefix[k]: sum over i < j < k of |v_i - v_j|
  for (std::size_t k = 1; k < n; ++k) {
    double row = 0;
    for (std::size_t i = 0; i < k; ++i) row += std::abs(v[i] - v[k]);
    prefix[k + 1] = prefix[k] + row;
  }
  std::vector<double> suffix(n + 1, 0);  // suffix[k]: sum over k <= i < j < n
  for (std::size_t k = n - 1; n > 0 && k-- > 0;) {
    double row = 0;
    for (std::size_t j = k + 1; j < n; ++j) row += std::abs(v[k] - v[j]);
    suffix[k] = suffix[k + 1] + row;
  }
  return best_of(prefix, suffix, n, min_segment);
}

SegmentEnergy::SegmentEnergy(std::span<const double> segment) {
  const std::size_t n = segment.size();
  std::vector<double> sorted(segment.begin(), segment.end());
  std::sort(sorted.begin(), sorted.end());
  const double lowest = n > 0 ? sorted.front() : 0;
  // Distinct levels with their counts; the distance of a level to the multiset from prefix sums.
  std::vector<std::size_t> count;
  for (const double x : sorted) {
    const double w = x - lowest;
    if (level_.empty() || w != level_.back()) {
      level_.push_back(w);
      count.push_back(0);
    }
    ++count.back();
  }
  distance_sum_.resize(level_.size());
  double below_sum = 0;
  std::size_t below = 0;
  double total = 0;
  for (std::size_t l = 0; l < level_.size(); ++l)
    total += level_[l] * static_cast<double>(count[l]);
  for (std::size_t l = 0; l < level_.size(); ++l) {
    const double w = level_[l];
    const std::size_t above = n - below - count[l];
    const double above_sum = total - below_sum - w * static_cast<double>(count[l]);
    distance_sum_[l] = (below > 0 ? w * static_cast<double>(below) - below_sum : 0) +
                       (above > 0 ? above_sum - w * static_cast<double>(above) : 0);
    below += count[l];
    below_sum += w * static_cast<double>(count[l]);
  }
  ranks_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double w = segment[i] - lowest;
    ranks_[i] = static_cast<std::uint32_t>(std::lower_bound(level_.begin(), level_.end(), w) -
                                           level_.begin());
  }
}

BestSplit SegmentEnergy::best_split(std::span<const std::uint32_t> ranks, std::size_t min_segment) {
  const std::size_t n = ranks.size();
  const std::size_t levels = level_.size();
  tree_count_.assign(levels + 1, 0);
  tree_sum_.assign(levels + 1, 0);
  seen_.assign(levels, 0);
  left_.resize(n);
  double earlier_sum = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t r = ranks[k];
    const double w = level_[r];
    double below = 0;  // earlier points on a lower level: count and sum (tree prefix over [0, r))
    double below_sum = 0;
    for (std::size_t i = r; i > 0; i &= i - 1) {
      below += tree_count_[i];
      below_sum += tree_sum_[i];
    }
    const double same = seen_[r];
    const double above = static_cast<double>(k) - below - same;
    // Earlier points on this level add exactly 0; an empty side adds exactly 0 too.
    left_[k] = (below > 0 ? w * below - below_sum : 0) +
               (above > 0 ? (earlier_sum - below_sum - w * same) - w * above : 0);
    for (std::size_t i = r + 1; i <= levels; i += i & (~i + 1)) {
      tree_count_[i] += 1;
      tree_sum_[i] += w;
    }
    ++seen_[r];
    earlier_sum += w;
  }
  // prefix[tau] = sum of left_ over k < tau; suffix[tau] = sum over k >= tau of the distances to
  // later points, which are each point's distance to all points minus those to earlier ones.
  std::vector<double>& prefix = tree_count_;  // reused: the tree is not needed any more
  std::vector<double>& suffix = tree_sum_;
  prefix.assign(n + 1, 0);
  suffix.assign(n + 1, 0);
  for (std::size_t k = 0; k < n; ++k) prefix[k + 1] = prefix[k] + left_[k];
  for (std::size_t k = n; k-- > 0;)
    suffix[k] = suffix[k + 1] + (distance_sum_[ranks[k]] - left_[k]);
  return best_of(prefix, suffix, n, min_segment);
}

}  // namespace fabricgate::stats
