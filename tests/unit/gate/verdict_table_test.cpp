// The verdict table: one row per verdict, and the properties every rule and renderer reads.
#include "harness/verdict/verdict_table.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

TEST(gate_VerdictTable, OneRowPerVerdictWithADistinctName) {
  std::set<std::string> names;
  for (const verdict::VerdictFacts& f : verdict::verdict_table()) {
    EXPECT_EQ(&verdict::facts_of(f.verdict), &f);
    EXPECT_STREQ(verdict::verdict_name(f.verdict), f.name);
    names.insert(f.name);
    EXPECT_FALSE(f.fails && f.warns) << f.name << ": a verdict fails or warns, not both";
    EXPECT_EQ(f.fails, f.style == verdict::VerdictStyle::fail) << f.name;
    EXPECT_EQ(f.warns, f.style == verdict::VerdictStyle::warn) << f.name;
    EXPECT_FALSE(f.joins_window && f.fails) << f.name << ": a failing launch never joins a band";
  }
  EXPECT_EQ(names.size(), verdict::verdict_table().size());
}

TEST(gate_VerdictTable, WarningsAndUngatedKeysNeverLookLikeAPass) {
  EXPECT_EQ(verdict::facts_of(verdict::Verdict::unstable).style, verdict::VerdictStyle::warn);
  EXPECT_EQ(verdict::facts_of(verdict::Verdict::ambiguous).style, verdict::VerdictStyle::warn);
  // JITTER warns about a key whose median passed: judged, never failing, never in the window.
  EXPECT_EQ(verdict::facts_of(verdict::Verdict::jitter).style, verdict::VerdictStyle::warn);
  EXPECT_TRUE(verdict::facts_of(verdict::Verdict::jitter).gated);
  EXPECT_FALSE(verdict::facts_of(verdict::Verdict::jitter).fails);
  EXPECT_FALSE(verdict::facts_of(verdict::Verdict::jitter).joins_window);
  EXPECT_FALSE(verdict::facts_of(verdict::Verdict::jitter).may_drift);
  EXPECT_EQ(verdict::facts_of(verdict::Verdict::noisy).style, verdict::VerdictStyle::info);
  EXPECT_EQ(verdict::facts_of(verdict::Verdict::new_key).style, verdict::VerdictStyle::info);
  EXPECT_FALSE(verdict::facts_of(verdict::Verdict::noisy).gated);
  EXPECT_FALSE(verdict::facts_of(verdict::Verdict::new_key).gated);
  EXPECT_FALSE(verdict::facts_of(verdict::Verdict::unstable).gated);
  EXPECT_TRUE(verdict::facts_of(verdict::Verdict::pass).gated);
  EXPECT_TRUE(verdict::facts_of(verdict::Verdict::regression).fails);
  EXPECT_TRUE(verdict::facts_of(verdict::Verdict::drift).fails);
}

TEST(gate_VerdictTable, OnlyJudgedPerformanceVerdictsAreReMeasuredAndOnlyPassesDrift) {
  for (const verdict::VerdictFacts& f : verdict::verdict_table()) {
    // A DIP is a performance shape of one launch: re-measured like a REGRESSION.
    EXPECT_EQ(f.remeasured, f.verdict == verdict::Verdict::regression ||
                                f.verdict == verdict::Verdict::unstable ||
                                f.verdict == verdict::Verdict::dip)
        << f.name;
    if (f.may_drift) {
      EXPECT_FALSE(f.fails) << f.name;
    }
  }
}

// The two questions' columns: a verdict about the runner is never counted against the change; a
// key the change is not judged on neither fails nor passes. One row each today.
TEST(gate_VerdictTable, RunnerAndUnjudgedColumnsNameOneVerdictEach) {
  for (const verdict::VerdictFacts& f : verdict::verdict_table()) {
    EXPECT_EQ(f.runner_question, f.verdict == verdict::Verdict::below_roofline) << f.name;
    EXPECT_EQ(f.change_unjudged, f.verdict == verdict::Verdict::runner_differs) << f.name;
    if (f.change_unjudged) {
      EXPECT_FALSE(f.fails) << f.name;
      EXPECT_FALSE(f.gated) << f.name;
    }
    EXPECT_EQ(verdict::verdict_about_runner(f.verdict), f.runner_question);
    EXPECT_EQ(verdict::verdict_change_unjudged(f.verdict), f.change_unjudged);
  }
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
