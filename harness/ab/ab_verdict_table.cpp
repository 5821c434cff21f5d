#include "harness/ab/ab_verdict_table.hpp"

#include <array>
#include <cstddef>

namespace fabricgate::ab {

namespace {

// clang-format off
// verdict                     name           fails  open   judged
constexpr std::array kTable{
  AbVerdictFacts{AbVerdict::invalid,     "INVALID",     true,  false, false,
                 "a launch of either side errored or computed wrong results"},
  AbVerdictFacts{AbVerdict::fail,        "FAIL",        true,  false, false,
                 "the whole interval is worse than 1 - tolerance"},
  AbVerdictFacts{AbVerdict::bimodal,     "BIMODAL",     true,  false, false,
                 "a side has two levels and a level of B is worse than A beyond the tolerance"},
  AbVerdictFacts{AbVerdict::only_a,      "ONLY-A",      true,  false, false,
                 "measured with A, not with B (B lost it)"},
  AbVerdictFacts{AbVerdict::undecided,   "UNDECIDED",   false, true,  false,
                 "the interval reaches below 1 - tolerance, not wholly beyond it: not a pass"},
  AbVerdictFacts{AbVerdict::two_states,  "TWO-STATES",  false, true,  false,
                 "a side has two levels, none of B's worse than A: not a pass either"},
  AbVerdictFacts{AbVerdict::noisy,       "NOISY",       false, false, false,
                 "the runner's own noise makes the key undecidable here: not gated"},
  AbVerdictFacts{AbVerdict::improvement, "IMPROVEMENT", false, false, true,
                 "the whole interval is better than 1 + tolerance"},
  AbVerdictFacts{AbVerdict::only_b,      "ONLY-B",      false, false, false,
                 "measured with B only"},
  AbVerdictFacts{AbVerdict::pass,        "PASS",        false, false, true,
                 "the whole interval lies above 1 - tolerance"},
  AbVerdictFacts{AbVerdict::skipped,     "SKIPPED",     false, false, false,
                 "skipped on both sides"},
};
// clang-format on

constexpr bool rows_in_enum_order() {
  for (std::size_t i = 0; i < kTable.size(); ++i) {
    if (static_cast<std::size_t>(kTable[i].verdict) != i) return false;
  }
  return true;
}
static_assert(rows_in_enum_order(), "one row per AbVerdict, in the enum's order");
static_assert(kTable.size() == static_cast<std::size_t>(AbVerdict::skipped) + 1,
              "an AbVerdict without a row");

}  // namespace

std::span<const AbVerdictFacts> ab_verdict_table() { return kTable; }

const AbVerdictFacts& ab_facts_of(AbVerdict v) { return kTable[static_cast<std::size_t>(v)]; }

const char* ab_verdict_name(AbVerdict v) { return ab_facts_of(v).name; }

bool ab_verdict_fails(AbVerdict v) { return ab_facts_of(v).fails; }

// TWO-STATES stays open too: later launches may show A in the worse state (NOISY) or B there
// significantly more often (BIMODAL); after the maximum it is not decided.
bool ab_verdict_open(AbVerdict v) { return ab_facts_of(v).open; }

}  // namespace fabricgate::ab
