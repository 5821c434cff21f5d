// The A/B verdict table: one row per verdict, and the properties the exit code and the bisection
// read (issue 59 item 4).
#include "harness/ab/ab_verdict_table.hpp"

#include "harness/ab/ab_compare.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

TEST(AbVerdictTable, OneRowPerVerdictAndNoRowBothFailingAndOpen) {
  std::set<std::string> names;
  for (const ab::AbVerdictFacts& f : ab::ab_verdict_table()) {
    EXPECT_EQ(&ab::ab_facts_of(f.verdict), &f);
    EXPECT_STREQ(ab::ab_verdict_name(f.verdict), f.name);
    EXPECT_EQ(ab::ab_verdict_fails(f.verdict), f.fails);
    EXPECT_EQ(ab::ab_verdict_open(f.verdict), f.open);
    names.insert(f.name);
    EXPECT_FALSE(f.fails && f.open) << f.name;
    EXPECT_FALSE(f.fails && f.judged) << f.name;
    EXPECT_FALSE(f.open && f.judged) << f.name;
  }
  EXPECT_EQ(names.size(), ab::ab_verdict_table().size());
  EXPECT_TRUE(ab::ab_facts_of(ab::AbVerdict::pass).judged);
  EXPECT_TRUE(ab::ab_facts_of(ab::AbVerdict::improvement).judged);
  EXPECT_FALSE(ab::ab_facts_of(ab::AbVerdict::noisy).judged);  // not gated: never a pass
}

// A comparison that judged no key is no pass: NOISY alone is exit 3, a PASS beside it exit 0.
TEST(AbVerdictTable, TheExitCodeReadsTheTable) {
  ab::AbComparison c;
  c.complete = true;
  c.keys.resize(2);
  c.keys[0].verdict = ab::AbVerdict::noisy;
  c.keys[1].verdict = ab::AbVerdict::noisy;
  EXPECT_EQ(ab::ab_exit_code(c), ExitCode::infra_failure);
  c.keys[1].verdict = ab::AbVerdict::pass;
  EXPECT_EQ(ab::ab_exit_code(c), ExitCode::pass);
  c.keys[1].verdict = ab::AbVerdict::two_states;
  EXPECT_EQ(ab::ab_exit_code(c), ExitCode::infra_failure);
  c.keys[1].verdict = ab::AbVerdict::only_a;
  EXPECT_EQ(ab::ab_exit_code(c), ExitCode::gate_failure);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
