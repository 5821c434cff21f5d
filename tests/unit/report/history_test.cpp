// Run history: ordering, the last N runs of a key, change vs previous, the trend of a slow drift,
// and the scan of results/<platform>/ with corrupt, foreign and interrupted runs beside good ones
// (synthetic runs through the real loader, and the committed 2x H200 runs).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "harness/report/history.hpp"
#include "tests/unit/gate/gate_fixtures.hpp"

namespace fabricgate::report {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;
using testing::json;

IndexedRun run(const std::string& id, const std::string& started, double busbw_1mib) {
  IndexedRun r;
  r.run_id = id;
  r.started_at = started;
  r.suite = "quick";
  r.scenario = "default";
  r.keys["k/bytes:8"] = KeyMedians{8, 10, 0.0008, 0.0008};
  r.keys["k/bytes:1048576"] =
      KeyMedians{1 << 20, 1e6 / busbw_1mib * 1.048576, busbw_1mib, busbw_1mib};
  return r;
}

TEST(report_History, OrdersByStartThenRunId) {
  std::vector<IndexedRun> runs = {run("b", "2026-11-29T10:00:00Z", 1),
                                  run("c", "2026-11-28T10:00:00Z", 1),
                                  run("a", "2026-11-29T10:00:00Z", 1)};
  order_runs(runs);
  EXPECT_EQ(runs[0].run_id, "c");
  EXPECT_EQ(runs[1].run_id, "a");
  EXPECT_EQ(runs[2].run_id, "b");
}

TEST(report_History, LastRunsOfAKeyWithChangeAndTrendOfASlowDrift) {
  // Each run 1 % slower: never beyond a 3 % tolerance from one run to the next, plain as a trend.
  std::vector<IndexedRun> runs;
  double busbw = 300;
  for (int i = 0; i < 12; ++i, busbw *= 0.99) {
    runs.push_back(run("r" + std::to_string(10 + i),
                       "2026-11-" + std::to_string(10 + i) + "T00:00:00Z", busbw));
  }
  runs[5].keys.erase("k/bytes:1048576");  // a run that did not measure the key is skipped
  const KeyHistory h = key_history(runs, "k/bytes:1048576", HistoryMetric::automatic, 8);
  EXPECT_EQ(h.metric, verdict::Metric::busbw_GBps);  // 1 MiB is a bandwidth size by default (P15)
  ASSERT_EQ(h.points.size(), 8u);
  EXPECT_EQ(h.points.front().run_id, "r13");  // the newest 8 of 11, oldest first (r15 left out)
  EXPECT_EQ(h.points.back().run_id, "r21");
  EXPECT_FALSE(h.points.front().change_vs_previous.has_value());
  ASSERT_TRUE(h.points.back().change_vs_previous.has_value());
  EXPECT_NEAR(*h.points.back().change_vs_previous, -0.01, 1e-9);
  EXPECT_NEAR(*h.points[2].change_vs_previous, 0.99 * 0.99 - 1, 1e-9);  // across the skipped run
  // The same runs by time: each run takes longer, which is worse, so the sign is compare's (-).
  const KeyHistory by_time = key_history(runs, "k/bytes:1048576", HistoryMetric::time, 8);
  ASSERT_TRUE(by_time.points.back().change_vs_previous.has_value());
  EXPECT_NEAR(*by_time.points.back().change_vs_previous, -0.01, 1e-9);
  EXPECT_NE(render_history_text(by_time).find("VS PREV (+ = better)"), std::string::npos);

  const auto gap = trend_of(h);  // the slope is per run listed: the skipped run steepens it
  ASSERT_TRUE(gap.has_value());
  EXPECT_EQ(gap->runs, 8u);
  EXPECT_NEAR(gap->first_to_last, std::pow(0.99, 8) - 1, 1e-9);
  EXPECT_LT(gap->slope_fraction_per_run, -0.0105);

  const KeyHistory newest =
      key_history(runs, "k/bytes:1048576", HistoryMetric::busbw, 6);  // r16..r21, no gap
  const auto t = trend_of(newest);
  ASSERT_TRUE(t.has_value());
  EXPECT_LT(t->slope_per_run, 0);
  EXPECT_NEAR(t->slope_fraction_per_run, -0.01, 0.0002);  // least squares over 0.99^k
  EXPECT_NEAR(t->first_to_last, std::pow(0.99, 5) - 1, 1e-9);
  EXPECT_DOUBLE_EQ(t->performance_first_to_last, t->first_to_last);

  const std::string text = render_history_text(h);
  EXPECT_NE(text.find("r21"), std::string::npos);
  EXPECT_NE(text.find("-1.0%"), std::string::npos) << text;
  EXPECT_NE(text.find("trend: "), std::string::npos);
  EXPECT_NE(text.find("worse by"), std::string::npos) << text;
}

TEST(report_History, TimeMetricForLatencySizesAndTrendSignInverted) {
  std::vector<IndexedRun> runs = {run("a", "2026-11-01T00:00:00Z", 1),
                                  run("b", "2026-11-02T00:00:00Z", 1)};
  runs[1].keys["k/bytes:8"].time_us = 8;  // faster
  const KeyHistory h = key_history(runs, "k/bytes:8", HistoryMetric::automatic, 0);
  EXPECT_EQ(h.metric, verdict::Metric::time_us);
  const auto t = trend_of(h);
  ASSERT_TRUE(t.has_value());
  EXPECT_NEAR(t->first_to_last, -0.2, 1e-12);
  EXPECT_NEAR(t->performance_first_to_last, 0.25, 1e-12);  // 10 us -> 8 us is 25 % better
  EXPECT_EQ(key_history(runs, "k/bytes:8", HistoryMetric::busbw, 0).metric,
            verdict::Metric::busbw_GBps);
  EXPECT_TRUE(key_history(runs, "nope", HistoryMetric::automatic, 0).points.empty());
  EXPECT_FALSE(
      trend_of(key_history({runs[0]}, "k/bytes:8", HistoryMetric::automatic, 0)).has_value());
  EXPECT_THROW(parse_history_metric("median"), InputError);
}

class report_HistoryScan : public ::testing::Test {
 protected:
  void SetUp() override { root_ = fabricgate::testing::fresh_temp_dir("history-scan"); }
  void TearDown() override { fs::remove_all(root_); }

  fs::path write(const std::string& id, const std::string& started, double time_us,
                 const std::string& platform) {
    fabricgate::testing::ResultSpec r;
    r.time_us = {time_us, time_us * 1.01, time_us * 0.99};
    fabricgate::testing::RunSpec spec;
    spec.run_id = id;
    spec.platform = platform;
    json doc = fabricgate::testing::make_run(spec, {fabricgate::testing::make_result(r)});
    doc["started_at"] = started;
    const fs::path dir = root_ / "results" / platform / id;
    write_json_atomically(dir / "run.json", doc);
    return dir;
  }

  fs::path root_;
};

TEST_F(report_HistoryScan, CorruptForeignAndInterruptedRunsAreWarningsNotErrors) {
  write("20261201T000000Z-cpu-default", "2026-12-01T00:00:00Z", 100, "cpu-test-2c");
  write("20261202T000000Z-cpu-default", "2026-12-02T00:00:00Z", 101, "cpu-test-2c");
  write("20261203T000000Z-cpu-default", "2026-12-03T00:00:00Z", 103, "cpu-test-2c");
  const fs::path platform = root_ / "results" / "cpu-test-2c";
  // A run of another platform filed here, a truncated run.json, a crashed run, an unrelated folder.
  const fs::path foreign = write("20261204T000000Z-x", "2026-12-04T00:00:00Z", 50, "other-2c");
  fs::rename(foreign, platform / "20261204T000000Z-x");
  fs::create_directories(platform / "20261205T000000Z-cpu-default");
  std::ofstream(platform / "20261205T000000Z-cpu-default" / "run.json")
      << "{\"schema\": \"fabricgate.run/1\",";
  fs::create_directories(platform / "20261206T000000Z-cpu-default");
  std::ofstream(platform / "20261206T000000Z-cpu-default" / "records.jsonl") << "{}\n";
  fs::create_directories(platform / "reference");
  std::ofstream(platform / "reference" / "notes.txt") << "not a run\n";
  std::ofstream(platform / "README.md") << "notes\n";

  ScanOptions options;
  options.platform = "cpu-test-2c";
  const RunScan scan = scan_runs(platform, options);
  ASSERT_EQ(scan.runs.size(), 3u);
  EXPECT_EQ(scan.runs.front().run_id, "20261201T000000Z-cpu-default");
  EXPECT_EQ(scan.runs.back().run_id, "20261203T000000Z-cpu-default");
  EXPECT_EQ(scan.parsed, 5u);
  ASSERT_EQ(scan.warnings.size(), 3u);
  std::string all;
  for (const std::string& w : scan.warnings) all += w + "\n";
  EXPECT_NE(all.find("20261204T000000Z-x/run.json: platform other-2c, not cpu-test-2c"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("20261205T000000Z-cpu-default/run.json"), std::string::npos) << all;
  EXPECT_NE(all.find("20261206T000000Z-cpu-default: records.jsonl without run.json"),
            std::string::npos)
      << all;
  EXPECT_EQ(all.find("reference"), std::string::npos) << "folders that are not runs stay quiet";

  EXPECT_TRUE(holds_runs(platform));
  // other-2c lost its only run to the move above: it holds no runs any more.
  EXPECT_EQ(platforms_under(root_ / "results"), (std::vector<std::string>{"cpu-test-2c"}));
  EXPECT_FALSE(holds_runs(root_ / "results" / "other-2c"));
  EXPECT_THROW(scan_runs(root_ / "missing", options), InputError);
}

TEST_F(report_HistoryScan, LastNReadsOnlyTheNewestRunsAndStopsAtTheReportedOne) {
  for (int day = 1; day <= 9; ++day) {
    write("2026120" + std::to_string(day) + "T000000Z-cpu-default",
          "2026-12-0" + std::to_string(day) + "T00:00:00Z", 100 + day, "cpu-test-2c");
  }
  const fs::path platform = root_ / "results" / "cpu-test-2c";
  ScanOptions options;
  options.last = 3;
  RunScan scan = scan_runs(platform, options);
  EXPECT_EQ(scan.parsed, 3u) << "older run.json files are not parsed";
  ASSERT_EQ(scan.runs.size(), 3u);
  EXPECT_EQ(scan.runs.front().run_id, "20261207T000000Z-cpu-default");

  options.started_up_to = "2026-12-05T00:00:00Z";  // reporting an older run: nothing after it
  scan = scan_runs(platform, options);
  ASSERT_EQ(scan.runs.size(), 3u);
  EXPECT_EQ(scan.runs.back().run_id, "20261205T000000Z-cpu-default");

  options = ScanOptions{};
  options.key = "coll/mpi/all_reduce/float32/sum/bytes:1048576/ranks:2/oop";
  options.last = 4;
  scan = scan_runs(platform, options);
  EXPECT_EQ(scan.runs.size(), 4u);
  const KeyHistory h = key_history(scan.runs, options.key, HistoryMetric::time, 0);
  ASSERT_EQ(h.points.size(), 4u);
  EXPECT_LT(h.points.front().value, h.points.back().value);
  options.key = "no/such/key";
  EXPECT_TRUE(scan_runs(platform, options).runs.empty());
}

// The committed runs of 2x H200: seven quick-suite runs (three with injected changes) and the
// nccl-reference run, with p2p/ holding records.jsonl only.
TEST(report_HistoryRealRuns, H200RunsInStartOrderAndP2pDisabledRunStandsOut) {
  const fs::path dir = fs::path(FABRICGATE_SOURCE_DIR) / "results" / "h200-sxm-x2-nv18";
  ScanOptions options;
  options.platform = "h200-sxm-x2-nv18";
  const RunScan scan = scan_runs(dir, options);
  ASSERT_GE(scan.runs.size(), 8u);
  for (std::size_t i = 1; i < scan.runs.size(); ++i)
    EXPECT_LE(scan.runs[i - 1].started_at, scan.runs[i].started_at);
  bool p2p_warned = false;
  for (const std::string& w : scan.warnings)
    p2p_warned = p2p_warned || w.find("/p2p: records.jsonl") != std::string::npos;
  EXPECT_TRUE(p2p_warned);

  const std::string key = "coll/nccl/all_gather/float32/bytes:1073741824/ranks:2/oop";
  const KeyHistory h = key_history(scan.runs, key, HistoryMetric::automatic, 0);
  EXPECT_EQ(h.metric, verdict::Metric::busbw_GBps);
  ASSERT_GE(h.points.size(), 7u);
  // NCCL_P2P_DISABLE=1 (run 191541) moves the data through shared memory: the slowest of all.
  const auto slowest = std::min_element(
      h.points.begin(), h.points.end(),
      [](const HistoryPoint& a, const HistoryPoint& b) { return a.value < b.value; });
  EXPECT_EQ(slowest->run_id, "20261129T191541Z-quick-default");
  // The table names what the odd runs changed; settings every run shares are not repeated.
  const std::string text = render_history_text(h);
  EXPECT_NE(text.find("NCCL_P2P_DISABLE=1"), std::string::npos) << text;
  EXPECT_NE(text.find("NCCL_PROTO=LL128"), std::string::npos) << text;
  EXPECT_EQ(text.find("NCCL_NVLS_ENABLE"), std::string::npos) << text;
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::report
