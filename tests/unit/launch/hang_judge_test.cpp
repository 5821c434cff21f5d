// judge_hang on hand-made progress documents: which ranks did not reach the collective, with
// which state, and what the console says (docs/STRAGGLERS.md, "Hang forensics").
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/launch/hang_forensics.hpp"

namespace fabricgate::launch {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using nlohmann::json;

constexpr double kNow = 1000.0;
constexpr double kStale = 5.0;

json beat(const std::string& host, long long steps, double age, bool finished = false) {
  return {{"schema", "fabricgate.rank-progress/1"},
          {"host", host},
          {"pid", 4242},
          {"key", "coll/mpi/all_reduce/float32/sum/bytes:8/ranks:2/oop"},
          {"sample", 3},
          {"steps", steps},
          {"finished", finished},
          {"time", kNow - age}};
}

std::string joined(const std::vector<std::string>& lines) {
  std::string all;
  for (const std::string& l : lines) all += l + "\n";
  return all;
}

TEST(launch_HangJudge, AStaleHeartbeatIsTheRankThatDidNotReachTheCollective) {
  const HangReport r = judge_hang({beat("a", 20, 0.3), beat("b", 20, 12.0)}, kNow, kStale, "t");
  EXPECT_EQ(r.doc["did_not_reach"], json::array({1}));
  EXPECT_EQ(r.doc["ranks"][0]["state"], "waiting");
  EXPECT_EQ(r.doc["ranks"][1]["state"], "not responding");
  EXPECT_EQ(r.doc["furthest_steps"], 20);  // from the responding ranks only
  ASSERT_EQ(r.console.size(), 1u);
  EXPECT_NE(r.console[0].find("rank 1 on host b did not reach the collective: not responding for "
                              "12 s (last completed coll/mpi/all_reduce"),
            std::string::npos)
      << r.console[0];
}

TEST(launch_HangJudge, StalenessIsStrictlyOlderThanTheThreshold) {
  const HangReport r = judge_hang({beat("a", 7, 5.0), beat("b", 7, 5.01)}, kNow, kStale, "t");
  EXPECT_EQ(r.doc["ranks"][0]["state"], "waiting");
  EXPECT_EQ(r.doc["ranks"][1]["state"], "not responding");
}

TEST(launch_HangJudge, FewerStepsThanTheFurthestRankIsBehindAndAMissingFileIsNamed) {
  const HangReport r =
      judge_hang({beat("a", 20, 0.1), beat("b", 11, 0.2), json(nullptr)}, kNow, kStale, "t");
  EXPECT_EQ(r.doc["did_not_reach"], json::array({1, 2}));
  EXPECT_EQ(r.doc["ranks"][1]["state"], "behind");
  EXPECT_EQ(r.doc["ranks"][2]["state"], "no progress file");
  const std::string console = joined(r.console);
  EXPECT_NE(console.find("rank 2 on host ? did not reach the collective: no progress file (no "
                         "benchmark completed)"),
            std::string::npos)
      << console;
}

TEST(launch_HangJudge, EveryRankAliveAtOneStepBlamesTheCollective) {
  const HangReport r = judge_hang({beat("a", 9, 0.1), beat("b", 9, 0.4)}, kNow, kStale, "t");
  EXPECT_EQ(r.doc["did_not_reach"], json::array());
  ASSERT_EQ(r.console.size(), 1u);
  EXPECT_EQ(r.console[0],
            "hang: every rank is alive at the same step; the collective itself did not complete");
}

TEST(launch_HangJudge, EveryRankFinishedAndAliveIsAHangInTheTeardown) {
  const HangReport r =
      judge_hang({beat("a", 200, 0.2, true), beat("b", 200, 0.3, true)}, kNow, kStale, "t");
  EXPECT_EQ(r.doc["did_not_reach"], json::array());
  EXPECT_EQ(r.doc["ranks"][0]["state"], "finished");
  EXPECT_EQ(r.doc["ranks"][1]["state"], "finished");
  ASSERT_EQ(r.console.size(), 1u);
  EXPECT_NE(r.console[0].find("finished its benchmarks and is alive; the job hung in its teardown"),
            std::string::npos)
      << r.console[0];
}

TEST(launch_HangJudge, ARankStoppedInItsTeardownIsStillNamed) {
  const HangReport r =
      judge_hang({beat("a", 200, 0.2, true), beat("b", 200, 9.0, true)}, kNow, kStale, "t");
  EXPECT_EQ(r.doc["did_not_reach"], json::array({1}));
  EXPECT_EQ(r.doc["ranks"][1]["state"], "not responding");
  ASSERT_EQ(r.console.size(), 1u);
  EXPECT_NE(r.console[0].find("sample 3, then its teardown began)"), std::string::npos)
      << r.console[0];
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::launch
