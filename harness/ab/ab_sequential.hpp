#pragma once
// The sequential design of `fabricgate ab`: pairs are added until every key is decided or the
// most pairs allowed have run. Each look (after pair min_pairs, min_pairs + 1, ..., max_pairs) is
// compare_ab over the pairs so far; a key's verdict becomes final at the first look that decides
// it (FAIL, PASS, IMPROVEMENT, BIMODAL, TWO-STATES, INVALID, ONLY-A/B, SKIPPED) and later pairs do
// not reopen it — except that a side found on two levels later is never left a pass (more
// launches show a second state that three could not). After max_pairs an open key stays
// UNDECIDED, never a pass.
//
// Why the false-alarm rate holds however many looks it takes: the alpha of the policy's
// confidence (1 - confidence, two-sided) is split evenly over the planned looks (Bonferroni:
// each look's interval has confidence 1 - alpha / looks). A key of an A/A fails only if some
// look's interval misses the truth, so P(false FAIL) <= looks x alpha / looks = alpha for every
// key, whatever the stopping time — conservative (the looks are positively correlated), and
// exact under no assumption about that correlation. A fixed design (--pairs N: min = max = N)
// has one look at the full confidence, the design before this one.
#include <string>
#include <vector>

#include "harness/ab/ab_compare.hpp"

namespace fabricgate::ab {

struct AbSchedule {
  int min_pairs = 3;
  int max_pairs = 12;
  int looks() const { return max_pairs - min_pairs + 1; }
};

inline constexpr int kDefaultMinPairs = 3;
inline constexpr int kDefaultMaxPairs = 12;

// Throws InputError unless 1 <= min_pairs <= max_pairs.
void check_schedule(const AbSchedule& s);

// Confidence of each look's interval: 1 - (1 - confidence) / looks.
double look_confidence(const AbSchedule& s, double confidence);

// The judgement after `pairs.size()` pairs: verdicts frozen at the look that decided them (with
// pairs_needed and stop_reason), `decided` when no key is open, `stop_reason` for the series.
// Before min_pairs every measured key is open ("collecting"). options.confidence is the family
// confidence; options.pairs_requested is set to max_pairs.
AbComparison judge_sequential(const AbSide& a, const AbSide& b, const std::vector<AbPair>& pairs,
                              AbOptions options, const AbSchedule& schedule);

}  // namespace fabricgate::ab
