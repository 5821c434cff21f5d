#include "harness/stats/change_points.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "harness/stats/energy_split.hpp"
#include "harness/stats/shift_estimate.hpp"
#include "harness/stats/statistics.hpp"

namespace fabricgate::stats {

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
    const std::uint64_t limit =
        std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % b;
    std::uint64_t r = next();
    while (r >= limit) r = next();
    return static_cast<std::size_t>(r % b);
  }

 private:
  std::uint64_t state_;
};

// The best split of series[begin, end) and, for the permutation test, of shuffles of it. Both
// statistics see the same shuffles: Fisher-Yates over the values (quadratic) or over their ranks
// (sorted) with the same random draws is the same rearrangement.
class SegmentTest {
 public:
  SegmentTest(std::span<const double> segment, SplitStatistic statistic)
      : statistic_(statistic), values_(segment.begin(), segment.end()) {
    if (statistic_ == SplitStatistic::sorted) {
      energy_.emplace(segment);
      ranks_ = energy_->ranks();
    }
  }

  BestSplit observed(std::size_t min_segment) {
    return statistic_ == SplitStatistic::sorted ? energy_->best_split(energy_->ranks(), min_segment)
                                                : best_split_quadratic(values_, min_segment);
  }

  BestSplit shuffled(SplitMix64& rng, std::size_t min_segment) {
    if (statistic_ == SplitStatistic::sorted) {
      for (std::size_t i = ranks_.size() - 1; i > 0; --i)
        std::swap(ranks_[i], ranks_[rng.below(i + 1)]);
      return energy_->best_split(ranks_, min_segment);
    }
    for (std::size_t i = values_.size() - 1; i > 0; --i)
      std::swap(values_[i], values_[rng.below(i + 1)]);
    return best_split_quadratic(values_, min_segment);
  }

 private:
  SplitStatistic statistic_;
  std::vector<double> values_;
  std::optional<SegmentEnergy> energy_;
  std::vector<std::uint32_t> ranks_;
};

struct Candidate {
  std::size_t begin = 0;
  std::size_t end = 0;
  BestSplit split;  // tau absolute
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

std::vector<ChangePoint> find_change_points(std::span<const double> series,
                                            const ChangePointOptions& o) {
  const std::size_t min_segment = std::max<std::size_t>(o.min_segment, 1);
  std::vector<std::size_t> cuts{0, series.size()};  // segment bounds, sorted
  std::vector<ChangePoint> found;
  SplitMix64 rng(o.seed);
  while (found.size() < o.max_change_points) {
    // The strongest split over all current segments (bisection, as in the paper).
    Candidate best;
    for (std::size_t s = 0; s + 1 < cuts.size(); ++s) {
      const std::size_t b = cuts[s];
      const std::size_t e = cuts[s + 1];
      if (e - b < 2 * min_segment) continue;
      BestSplit split = SegmentTest(series.subspan(b, e - b), o.statistic).observed(min_segment);
      split.tau += b;
      if (split.q > best.split.q) best = {b, e, split};
    }
    if (best.split.q <= 0) break;
    // Permutation test of that segment: how often does a shuffled segment split as strongly?
    // Stops as soon as the p-value can no longer reach alpha (most "no change" keys need a few
    // shuffles, not all of them).
    const std::size_t stop_after =
        static_cast<std::size_t>(std::floor(o.alpha * static_cast<double>(o.permutations + 1)));
    std::size_t exceed = 0;
    std::size_t run = 0;
    SegmentTest test(series.subspan(best.begin, best.end - best.begin), o.statistic);
    // A shuffle that splits as strongly counts; "as strongly" up to rounding, because a series on
    // a few discrete levels has rearrangements whose Q equals the observed one exactly, and the
    // last bits of a sum of hundreds of terms depend on the order it was added in.
    const double as_strong = best.split.q * (1 - 1e-9);
    while (run < o.permutations && exceed < stop_after) {
      if (test.shuffled(rng, min_segment).q >= as_strong) ++exceed;
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
  std::sort(found.begin(), found.end(),
            [](const ChangePoint& a, const ChangePoint& b) { return a.index < b.index; });
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

}  // namespace fabricgate::stats
