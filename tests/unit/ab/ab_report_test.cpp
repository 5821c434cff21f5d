// The A/B renderers and ab.json: failing keys first, what changed on top, intervals printed,
// unbounded ends as JSON null, credentials redacted.
#include <gtest/gtest.h>

#include <limits>
#include <regex>

#include "harness/ab/ab_json.hpp"
#include "harness/report/ab_report.hpp"
#include "tests/unit/ab/ab_fixtures.hpp"

namespace fabricgate::testing {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

ab::AbComparison sample() {
  std::vector<ab::AbPair> pairs;
  for (int p = 1; p <= 3; ++p) {
    ResultSpec good;
    good.bytes = 1 << 20;
    good.time_us = noisy(100, 0.01, 5, static_cast<unsigned>(p));
    ResultSpec slow = good;
    slow.time_us = noisy(300, 0.01, 5, static_cast<unsigned>(p + 10));
    ResultSpec small;
    small.bytes = 8;
    small.time_us = {3, 3.1, 2.9};
    pairs.push_back(ab_pair(
        p, {make_result(good), make_result(small)}, {make_result(slow), make_result(small)},
        libs("2.28.3", "/usr/lib/libnccl.so.2.28.3"), libs("2.28.9", "/pip/lib/libnccl.so.2")));
  }
  ab::AbOptions o;
  o.pairs_requested = 3;
  auto b = ab_side("b", {{"SECRET_TOKEN", "hunter2"}});
  b.items.push_back("nccl=/pip");
  auto c = compare_ab(ab_side("a"), b, pairs, o);
  c.run_id = "20261129T210000Z-cpu-ab";
  c.suite = "cpu";
  return c;
}

TEST(AbReport, ConsoleListsChangesThenFailingKeysFirst) {
  const std::string out = report::render_ab_console(sample(), false);
  EXPECT_NE(out.find("changed A -> B: NCCL version 2.28.3 -> 2.28.9"), std::string::npos) << out;
  EXPECT_NE(out.find("FAIL: 1 of 2 keys"), std::string::npos) << out;
  const auto fail_row = out.find("\nFAIL ");
  const auto pass_row = out.find("\nPASS ");
  ASSERT_NE(fail_row, std::string::npos) << out;
  ASSERT_NE(pass_row, std::string::npos) << out;
  EXPECT_LT(fail_row, pass_row);
  EXPECT_TRUE(std::regex_search(out, std::regex(R"(0\.3\d\d \[0\.3\d\d, 0\.3\d\d\])"))) << out;
  EXPECT_EQ(out.find("hunter2"), std::string::npos) << out;
  EXPECT_EQ(out.find("\033["), std::string::npos);  // no colours when not asked
}

TEST(AbReport, MarkdownHasTheChangeTableAndTheKeys) {
  const std::string md = report::render_ab_markdown(sample());
  EXPECT_NE(md.find("## fabricgate A/B :x: FAIL"), std::string::npos) << md;
  EXPECT_NE(md.find("| NCCL version | `2.28.3` | `2.28.9` |"), std::string::npos) << md;
  EXPECT_NE(md.find("| **FAIL** | `coll/mpi/all_reduce/float32/sum/bytes:1048576/ranks:2/oop`"),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("hunter2"), std::string::npos);
}

TEST(AbReport, JsonCarriesSchemaIntervalsAndRedactedSides) {
  const auto j = ab::ab_to_json(sample());
  EXPECT_EQ(j["schema"], "fabricgate.ab/2");
  EXPECT_EQ(j["exit_code"], 1);
  EXPECT_EQ(j["sides"]["b"]["env"]["SECRET_TOKEN"], "<redacted>");
  EXPECT_EQ(j["sides"]["b"]["items"][0], "SECRET_TOKEN=<redacted>");
  EXPECT_EQ(j["sides"]["b"]["loaded"]["nccl_version"], "2.28.9");
  const auto& fail = j["keys"][0];
  EXPECT_EQ(fail["verdict"], "FAIL");
  EXPECT_TRUE(fail["ratio_b_over_a"]["bounded"].get<bool>());
  EXPECT_LT(fail["ratio_b_over_a"]["high"].get<double>(), 0.4);
  EXPECT_EQ(fail["pair_ratios"].size(), 3u);
  // 8 B: three identical samples per launch, nine per side: bounded; an unbounded end would be
  // null.
  ab::AbKey k;
  k.samples_a = k.samples_b = 1;
  ab::AbComparison c;
  c.keys.push_back(k);
  c.keys.back().ratio.high = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(ab::ab_to_json(c)["keys"][0]["ratio_b_over_a"]["high"].is_null());
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::testing
