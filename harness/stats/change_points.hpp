#pragma once
// Change points in a series of per-run medians: E-divisive means (Matteson & James, "A
// Nonparametric Approach for Multiple Change Point Analysis of Multivariate Data", JASA 2014)
// with a permutation significance test, the method MongoDB's performance CI and Apache Otava use.
//
// Why this method: launch medians are not normal (CPU runs have heavy upper tails from other
// processes, GPU runs sit on a few discrete levels), the noise level differs by orders of magnitude
// between keys, and the number of steps is unknown. E-divisive assumes no distribution, finds any
// number of steps by bisection, and the permutation test gives a p-value that is exact under
// "no change" whatever the noise shape, so one alpha serves CPU and GPU keys alike.
//
// The permutation stream is a seeded splitmix64 with an explicit Fisher-Yates shuffle (no
// std:: distribution, whose algorithm is implementation-defined), so results are reproducible
// across machines and standard libraries.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace fabricgate::stats {

// How the split statistic is summed (energy_split.hpp): the same numbers either way, up to
// rounding; `quadratic` is the plain O(n^2)-per-permutation formula, kept as the reference.
enum class SplitStatistic { sorted, quadratic };

struct ChangePointOptions {
  double alpha = 0.01;             // a candidate is kept when its permutation p-value <= alpha
  std::size_t permutations = 499;  // p-value resolution 1/500
  std::size_t min_segment = 3;     // runs on each side of a change point, at least
  std::size_t max_change_points = 10;
  double interval_confidence = 0.95;  // of the step's ratio interval
  std::uint64_t seed = 0x9e3779b97f4a7c15ULL;
  SplitStatistic statistic = SplitStatistic::sorted;
};

struct ChangePoint {
  std::size_t index = 0;     // first point on the new level
  double statistic = 0;      // E-divisive Q at the split
  double p_value = 1;        // permutation p-value, (exceedances + 1) / (permutations run + 1)
  double before_median = 0;  // median of the segment that ends at the split
  double after_median = 0;   // median of the segment that starts at it
  double ratio = 1;          // Hodges-Lehmann estimate of after / before
  double ratio_low = 0;      // interval of that ratio (0 / +inf when too few points)
  double ratio_high = 0;
  bool interval_bounded = false;
};

// Change points of `series` (oldest first), ordered by index. Values must be > 0 for the ratio
// interval; a series shorter than 2 x min_segment has none.
std::vector<ChangePoint> find_change_points(std::span<const double> series,
                                            const ChangePointOptions& options);

// A reproducible seed for one key: the options' seed mixed with a hash of the key's name, so
// adding or removing other keys never changes this key's answer.
std::uint64_t seed_for(std::uint64_t base, std::span<const char> name);

}  // namespace fabricgate::stats
