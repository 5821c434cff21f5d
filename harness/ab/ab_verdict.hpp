#pragma once
// The A/B gate's verdicts per key; their properties are rows of ab_verdict_table.hpp.
namespace fabricgate::ab {

enum class AbVerdict {
  invalid,      // a launch of either side errored or computed wrong results for this key
  fail,         // the whole interval is worse than 1 - tolerance
  bimodal,      // a side has two levels and a level of B is worse than A beyond the tolerance
  only_a,       // measured with A, not with B (B lost it)
  undecided,    // the interval reaches below 1 - tolerance and not wholly beyond it: not a pass
  two_states,   // a side has two levels, none of B's worse than A: not a pass either
  noisy,        // the runner's own noise (its two states, or a spread the maximum of pairs cannot
                // beat) makes the key undecidable here: not gated, as the baseline gate's NOISY
  improvement,  // the whole interval is better than 1 + tolerance
  only_b,       // measured with B only
  pass,         // the whole interval lies above 1 - tolerance
  skipped,      // skipped on both sides
};

const char* ab_verdict_name(AbVerdict v);  // "FAIL", "ONLY-A", ...
bool ab_verdict_fails(AbVerdict v);
// A verdict more pairs could still change: UNDECIDED and TWO-STATES (NOISY is final, not gated).
// Still open after the last pair, it is "not decided" (exit 3): neither failing nor a pass.
bool ab_verdict_open(AbVerdict v);

}  // namespace fabricgate::ab
