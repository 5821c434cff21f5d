#include "harness/ab/ab_sequential.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "harness/stats/statistics.hpp"

namespace fabricgate::ab {

void check_schedule(const AbSchedule& s) {
  if (s.min_pairs < 1)
    throw InputError("--min-pairs", std::to_string(s.min_pairs), "at least 1 pair");
  if (s.max_pairs < s.min_pairs) {
    throw InputError("--max-pairs", std::to_string(s.max_pairs),
                     "at least --min-pairs (" + std::to_string(s.min_pairs) + ")");
  }
}

double look_confidence(const AbSchedule& s, double confidence) {
  return 1 - (1 - confidence) / static_cast<double>(s.looks());
}

namespace {

std::string decided_text(const AbKey& k, int look) {
  return fmt::format("{} after {} pair{}", ab_verdict_name(k.verdict), look, look == 1 ? "" : "s");
}

// The fewest looks from which an open key's noise is judged: its pairs' spread from fewer than
// four is a guess.
constexpr int kNoiseLook = 4;
constexpr int kMostPairsProjected = 1000;

// About how many pairs an open key needs before its interval can clear the tolerance on the side
// its centre lies, if the centre and the pairs' spread stay as they are: the smallest N whose
// t half-width t(1 - alpha/2, N - 1) * s / sqrt(N) on the log scale is below the distance from the
// centre to 1 - tolerance. 0 when it cannot be told (no spread, a centre on the tolerance).
int pairs_to_decide(const AbKey& k, double look_confidence) {
  const PairLogs p = pair_logs(k.pair_ratios);
  const std::size_t n_pairs = p.logs.size();
  if (n_pairs < 2 || !k.performance.bounded || k.performance.estimate <= 0) return 0;
  const double sd = std::sqrt(p.ss / static_cast<double>(n_pairs - 1));
  const double distance = std::fabs(std::log(k.performance.estimate) - std::log(1 - k.tolerance));
  if (sd <= 0 || distance <= 0) return 0;
  const double q = 1 - (1 - look_confidence) / 2;
  for (int n = static_cast<int>(n_pairs) + 1; n <= kMostPairsProjected; ++n) {
    if (stats::student_t_quantile(q, n - 1.0) * sd / std::sqrt(static_cast<double>(n)) <= distance)
      return n;
  }
  return kMostPairsProjected + 1;
}

}  // namespace

AbComparison judge_sequential(const AbSide& a, const AbSide& b, const std::vector<AbPair>& pairs,
                              AbOptions o, const AbSchedule& s) {
  check_schedule(s);
  const double family = o.confidence;
  o.confidence = look_confidence(s, family);
  o.pairs_requested = s.max_pairs;
  const int measured = static_cast<int>(std::min<std::size_t>(pairs.size(), s.max_pairs));
  const std::vector<AbPair> used(pairs.begin(), pairs.begin() + measured);

  // Each look in turn; a key keeps the first verdict that decided it.
  std::map<std::string, AbKey> final_keys;
  for (int look = s.min_pairs; look <= measured; ++look) {
    const std::vector<AbPair> prefix(used.begin(), used.begin() + look);
    for (AbKey& k : compare_ab(a, b, prefix, o).keys) {
      if (final_keys.count(k.key)) continue;
      if (ab_verdict_open(k.verdict)) {
        // Said early, not after the maximum: a key whose pairs scatter more than the maximum of
        // pairs can average out is the runner's noise here, not a decision postponed.
        if (look < std::max(kNoiseLook, s.min_pairs + 1) || look >= s.max_pairs) continue;
        const int needed = pairs_to_decide(k, o.confidence);
        if (needed <= s.max_pairs) continue;
        k.verdict = AbVerdict::noisy;
        k.pairs_needed = look;
        k.stop_reason = fmt::format(
            "NOISY after {} pairs: the pairs scatter so that about {} pairs would decide it, "
            "more than the maximum of {} (the runner's own noise; not gated here)",
            look, needed > kMostPairsProjected ? "more than 1000" : std::to_string(needed),
            s.max_pairs);
        k.reason += "; " + k.stop_reason;
        final_keys.emplace(k.key, std::move(k));
        continue;
      }
      k.pairs_needed = look;
      k.stop_reason = "decided: " + decided_text(k, look);
      final_keys.emplace(k.key, std::move(k));
    }
  }
  AbComparison c = compare_ab(a, b, used, o);
  c.min_pairs = s.min_pairs;
  c.look_confidence = o.confidence;
  c.confidence = family;
  const bool at_max = measured >= s.max_pairs;
  for (AbKey& k : c.keys) {
    const auto frozen = final_keys.find(k.key);
    if (frozen != final_keys.end()) {
      // Two states seen in all the launches outrank a pass decided on fewer of them.
      const bool two_states_now =
          k.verdict == AbVerdict::bimodal || k.verdict == AbVerdict::two_states;
      const AbVerdict was = frozen->second.verdict;
      if (two_states_now && (was == AbVerdict::pass || was == AbVerdict::improvement)) {
        k.pairs_needed = measured;
        k.stop_reason = "decided: " + decided_text(k, measured) + " (was " + ab_verdict_name(was) +
                        " after " + std::to_string(frozen->second.pairs_needed) + " pairs)";
      } else {
        k = frozen->second;
      }
      continue;
    }
    if (measured < s.min_pairs) {
      k.verdict = AbVerdict::undecided;
      k.stop_reason = fmt::format("collecting: the first look is after pair {}", s.min_pairs);
    } else if (at_max) {
      k.pairs_needed = measured;
      k.stop_reason = fmt::format("not decided after the maximum of {} pairs", s.max_pairs);
    } else {
      k.stop_reason = fmt::format("open after {} pairs", measured);
    }
  }
  std::stable_sort(c.keys.begin(), c.keys.end(), [](const AbKey& x, const AbKey& y) {
    return x.verdict != y.verdict ? x.verdict < y.verdict : x.key < y.key;
  });
  c.decided = measured >= s.min_pairs &&
              std::none_of(c.keys.begin(), c.keys.end(),
                           [](const AbKey& k) { return ab_verdict_open(k.verdict); });
  const std::size_t open = static_cast<std::size_t>(std::count_if(
      c.keys.begin(), c.keys.end(), [](const AbKey& k) { return ab_verdict_open(k.verdict); }));
  if (c.decided) {
    c.stop_reason = fmt::format("every key decided after {} pairs", measured);
  } else if (at_max) {
    c.stop_reason =
        fmt::format("{} key(s) not decided after the maximum of {} pairs", open, s.max_pairs);
  } else if (!c.complete) {
    c.stop_reason = "stopped early: " + c.incomplete_reason;
  } else {
    c.stop_reason = fmt::format("running: {} key(s) open after {} pairs", open, measured);
  }
  c.exit_code = ab_exit_code(c);
  return c;
}

}  // namespace fabricgate::ab
