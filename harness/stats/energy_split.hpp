#pragma once
// The E-divisive split statistic of one segment (change_points.hpp): for every admissible split
// tau, Q(tau) = m r / (m + r) * (2/(m r) cross - 2/(m(m-1)) within_left - 2/(r(r-1)) within_right)
// with m = tau, r = n - tau and the sums over |x_i - x_j| of pairs across, left of and right of
// tau; the best split maximises Q.
//
// Two ways to get the same numbers. `best_split_quadratic` sums every pair, O(n^2): the plain
// formula, kept as the reference the fast path is tested against. `SegmentEnergy` is what the
// detector runs: the permutation test evaluates hundreds of rearrangements of one multiset of
// values, so the values are sorted once; then, per arrangement, within_left(tau) comes from one
// Fenwick tree over value ranks (the sum of |x_i - x_k| over earlier i is a count and a sum of
// the smaller and of the larger earlier values), and within_right from each value's distance sum
// to the whole multiset, which no arrangement changes. O(n log n) per arrangement.
//
// Values are shifted by the segment's minimum first (exact for positive series within a factor
// 2 of it), so that a constant or two-level series gives exact zeros and exact ties, as the
// plain sums do: "no change" stays exactly no change.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace fabricgate::stats {

struct BestSplit {
  std::size_t tau = 0;  // first point after the split, relative to the segment
  double q = -1;        // -1 when the segment has no admissible split
};

BestSplit best_split_quadratic(std::span<const double> v, std::size_t min_segment);

class SegmentEnergy {
 public:
  // Sorts the segment's values; arrangements are then given as value ranks.
  explicit SegmentEnergy(std::span<const double> segment);

  // The ranks of the segment as given (its original arrangement); shuffle a copy of these.
  const std::vector<std::uint32_t>& ranks() const { return ranks_; }

  // Best split of the arrangement `ranks` (a permutation of ranks()).
  BestSplit best_split(std::span<const std::uint32_t> ranks, std::size_t min_segment);

 private:
  std::vector<double> level_;         // distinct values minus the minimum, ascending
  std::vector<double> distance_sum_;  // per level: sum over the whole segment of |x - level|
  std::vector<std::uint32_t> ranks_;  // per point: index into level_
  std::vector<double> tree_count_;    // Fenwick tree over levels: earlier points below a level
  std::vector<double> tree_sum_;
  std::vector<std::uint32_t> seen_;  // per level: earlier points on it
  std::vector<double> left_;         // per point: sum of |x_i - x_k| over earlier i
};

}  // namespace fabricgate::stats
