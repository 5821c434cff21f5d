#pragma once
// Every A/B verdict's properties in one table, as harness/verdict/verdict_table.hpp holds the
// baseline gate's: its name, whether it fails the gate (exit 1), whether more pairs could still
// change it (open: UNDECIDED and TWO-STATES, "not decided" after the maximum, exit 3), and
// whether the key was judged (a PASS or IMPROVEMENT: a comparison that judged no key is no pass).
// ab_verdict_name / _fails / _open and the exit code read this table only.
#include <span>

#include "harness/ab/ab_verdict.hpp"

namespace fabricgate::ab {

struct AbVerdictFacts {
  AbVerdict verdict;
  const char* name;     // "FAIL"
  bool fails;           // exit 1
  bool open;            // more pairs could change it; not decided after the maximum (exit 3)
  bool judged;          // B was shown within (or better than) the tolerance of A
  const char* meaning;  // one line for legends and docs
};

// Every A/B verdict in the enum's order.
std::span<const AbVerdictFacts> ab_verdict_table();
const AbVerdictFacts& ab_facts_of(AbVerdict v);

}  // namespace fabricgate::ab
