#pragma once
// Every verdict's properties in one table: whether it fails the gate or warns, whether a launch
// with it is re-measured before it counts, may join the baseline's window or become DRIFT, whether
// the key was gated at all, and how renderers style it. Rules (confirmation, baseline window,
// DRIFT) and renderers (console, Markdown, HTML, annotations, JUnit, Pushgateway) read this table
// and nothing else: a new verdict is one row here plus the rule that decides it.
#include <span>

#include "harness/verdict/verdict.hpp"

namespace fabricgate::verdict {

// How a verdict looks: one style per meaning, the same in every format.
enum class VerdictStyle {
  fail,  // fails the gate: red, an annotation error, a JUnit failure
  warn,  // needs a look but does not fail: yellow, an annotation warning, listed with failures
  pass,  // judged and inside (or better than) the band: green
  info,  // not gated (NEW, NOISY): never styled as a pass; a JUnit skip with the reason
  skip,  // not measured here (SKIPPED): a JUnit skip
};

struct VerdictFacts {
  Verdict verdict;
  const char* name;   // "REGRESSION"
  bool fails;         // exit 1
  bool warns;         // shown with the failures, an annotation warning; never exit 1
  bool remeasured;    // `run` measures the key again before the verdict counts
  bool joins_window;  // a launch with this verdict may join the baseline's rolling window
  bool may_drift;     // DRIFT may replace it (the key passed this run)
  bool gated;         // the key was judged against the baseline (JUnit: a test that ran)
  bool load_made;     // a host busy with other work produces it by itself (a slower measurement):
                      // such failures become "runner busy, not judged" (judge_run.hpp)
  bool runner_question;  // answers the runner question, not the change's (BELOW-ROOFLINE: the
                         // hardware should do better); never counted against the change
  bool change_unjudged;  // the change is not judged on this key here (RUNNER-DIFFERS: outside the
                         // fleet on a host with no history); a paired check may judge it
  VerdictStyle style;
  const char* meaning;  // one line for legends and docs
};

// Every verdict in urgency order (the enum's order).
std::span<const VerdictFacts> verdict_table();
const VerdictFacts& facts_of(Verdict v);
const char* style_name(VerdictStyle s);  // "fail", "warn", "pass", "info", "skip"

}  // namespace fabricgate::verdict
