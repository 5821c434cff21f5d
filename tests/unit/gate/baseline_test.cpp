// Baseline creation (median of run medians, pooled samples), update diffs, the file format's
// round trip and validation, and atomic writes that leave the old file on error.
#include <gtest/gtest.h>

#include <fstream>
#include <limits>
#include <sstream>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "harness/baseline/baseline_builder.hpp"
#include "harness/baseline/baseline_diff.hpp"
#include "harness/baseline/baseline_window.hpp"
#include "harness/model/baseline.hpp"
#include "tests/unit/gate/gate_fixtures.hpp"

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using testing::json;
using testing::ResultSpec;
using testing::RunSpec;

RunRecord run_with_times(const std::string& id, std::vector<double> times, RunSpec rs = {},
                         std::uint64_t bytes = 1 << 20) {
  ResultSpec s;
  s.bytes = bytes;
  s.time_us = std::move(times);
  s.choice = {{"algo", {{"Ring", 4}}}, {"proto", {{"LL", 4}}}, {"channels", {{"2", 4}}}};
  rs.run_id = id;
  rs.git_commit = "c-" + id;
  return testing::to_run(testing::make_run(rs, {testing::make_result(s)}));
}

std::vector<RunRecord> three_runs() {
  return {run_with_times("r1", {10, 11, 12}), run_with_times("r2", {20, 21, 22}),
          run_with_times("r3", {30, 31, 100})};
}

baseline::BaselineBuildOptions options() {
  baseline::BaselineBuildOptions o;
  o.now = "2026-11-29T12:00:00Z";
  // One session of synthetic launches: the one-level band these tests are about, without the
  // between-session allowance (sessions and hosts: variance_components_test.cpp).
  o.policy.session_allowance = 0;
  return o;
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(gate_BaselineCreate, MedianOfRunMediansAndPooledSamples) {
  const baseline::BuiltBaseline built = baseline::create_baseline(three_runs(), options());
  ASSERT_EQ(built.baseline.entries.size(), 1u);
  const BaselineEntry& e = built.baseline.entries.begin()->second;
  EXPECT_EQ(e.time_us.run_medians, (std::vector<double>{11, 21, 31}));
  EXPECT_DOUBLE_EQ(e.time_us.median, 21);  // not the pooled median, not the mean (an outlier run)
  EXPECT_EQ(e.time_us.samples.size(), 9u);
  EXPECT_EQ(e.metric, "busbw_GBps");
  ASSERT_TRUE(e.busbw_GBps);
  ASSERT_TRUE(e.choice);
  EXPECT_EQ(e.choice->algo, (std::set<std::string>{"Ring"}));
  EXPECT_EQ(e.provenance.runs_merged, 3);
  EXPECT_EQ(e.provenance.run_ids, (std::vector<std::string>{"r1", "r2", "r3"}));
  EXPECT_EQ(e.provenance.git_commit, "c-r1,c-r2,c-r3");
  EXPECT_EQ(e.provenance.versions.at("nccl"), "2.28.3");
  EXPECT_EQ(built.baseline.platform, "cpu-test-2c");
  EXPECT_EQ(built.baseline.identity["cpu_model"], "Test CPU 2c");
}

TEST(gate_BaselineCreate, NeedsThreeRuns) {
  auto runs = three_runs();
  runs.pop_back();
  try {
    baseline::create_baseline(runs, options());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("at least 3 runs"), std::string::npos);
  }
}

TEST(gate_BaselineCreate, RefusesMixedPlatformsIdentitiesAndIncompleteRuns) {
  auto runs = three_runs();
  RunSpec other;
  other.identity["cpu_model"] = "Another CPU";
  runs[2] = run_with_times("r3", {30, 31, 32}, other);
  EXPECT_THROW(baseline::create_baseline(runs, options()), InputError);
  runs = three_runs();
  RunSpec incomplete;
  incomplete.complete = false;
  runs[1] = run_with_times("r2", {1, 2, 3}, incomplete);
  EXPECT_THROW(baseline::create_baseline(runs, options()), InputError);
  runs = three_runs();
  runs[2].run_id = "r1";  // the same run twice is not three runs
  EXPECT_THROW(baseline::create_baseline(runs, options()), InputError);
}

TEST(gate_BaselineCreate, RefusesRunsThatDisagreeOnTransport) {
  RunSpec ib;
  ib.capture = {
      {"path", "log"}, {"network", "IB"}, {"transports", json::array()}, {"gdrdma", true}};
  RunSpec socket = ib;
  socket.capture["network"] = "Socket";
  auto nccl = [](const std::string& id, RunSpec rs) {
    ResultSpec s;
    s.backend = "nccl";
    s.time_us = {10, 11, 12};
    rs.run_id = id;
    return testing::to_run(testing::make_run(rs, {testing::make_result(s)}));
  };
  std::vector<RunRecord> runs{nccl("a", ib), nccl("b", ib), nccl("c", socket)};
  try {
    baseline::create_baseline(runs, options());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("P05"), std::string::npos) << e.what();
  }
}

TEST(gate_BaselineFile, RoundTripsThroughJson) {
  const Baseline b = baseline::create_baseline(three_runs(), options()).baseline;
  const Baseline again = parse_baseline(baseline_to_json(b), "mem");
  EXPECT_EQ(baseline_to_json(again), baseline_to_json(b));
  EXPECT_EQ(baseline_to_json(b)["schema"], "fabricgate.baseline/3");
}

TEST(gate_BaselineFile, ValidationNamesFileAndField) {
  json doc = baseline_to_json(baseline::create_baseline(three_runs(), options()).baseline);
  const std::string key = doc["entries"].begin().key();
  json bad = doc;
  bad["entries"][key]["time_us"]["median"] = -1;
  try {
    parse_baseline(bad, "b.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "b.json");
    EXPECT_EQ(
        e.field(),
        "/entries/coll~1mpi~1all_reduce~1float32~1sum~1bytes:1048576~1ranks:2~1oop/time_us/median");
  }
  bad = doc;
  bad["platform"] = "../etc";
  EXPECT_THROW(parse_baseline(bad, "b.json"), InputError);
  bad = doc;
  bad["tolerance_policy"]["multiple_comparison"] = "bonferroni";
  EXPECT_THROW(parse_baseline(bad, "b.json"), InputError);
  bad = doc;
  bad.erase("identity");
  EXPECT_THROW(parse_baseline(bad, "b.json"), InputError);
  EXPECT_THROW(parse_json_text(doc.dump(), "b.json", "fabricgate.run/1"),
               InputError);  // wrong schema
}

TEST(gate_BaselineUpdate, MergesLaunchesIntoTheWindowAndDiffShowsPercent) {
  const Baseline old = baseline::create_baseline(three_runs(), options()).baseline;
  std::vector<RunRecord> newer{
      run_with_times("n1", {11, 11, 11}), run_with_times("n2", {11, 11, 11}),
      run_with_times("n3", {11, 11, 11}), run_with_times("n4", {5, 5, 5}, {}, 4096)};
  // The 4 KiB key is in one run only: left out, and listed as such.
  const baseline::BuiltBaseline updated =
      baseline::update_baseline_window(old, newer, "2026-12-01T00:00:00Z").built;
  ASSERT_EQ(updated.baseline.entries.size(), 1u);
  ASSERT_EQ(updated.left_out.size(), 1u);
  const BaselineEntry& e = updated.baseline.entries.begin()->second;
  EXPECT_DOUBLE_EQ(e.time_us.median, 11);
  EXPECT_EQ(updated.baseline.created_at, old.created_at);
  EXPECT_EQ(updated.baseline.updated_at, "2026-12-01T00:00:00Z");
  const baseline::BaselineDiff diff = baseline::diff_baselines(&old, updated.baseline);
  ASSERT_EQ(diff.medians.size(), 1u);
  EXPECT_EQ(diff.medians[0].metric, "busbw_GBps");
  // time 21 -> 11 us: busbw x 21/11 = +90.9 %
  EXPECT_NEAR(diff.medians[0].change, 21.0 / 11.0 - 1, 1e-9);
  const std::string text = baseline::render_baseline_diff(diff);
  EXPECT_NE(text.find("changed medians (1)"), std::string::npos) << text;
  EXPECT_NE(text.find("+90.9%"), std::string::npos) << text;
}

TEST(gate_BaselineDiffText, NewBaselineSaysHowManyKeys) {
  const Baseline b = baseline::create_baseline(three_runs(), options()).baseline;
  EXPECT_EQ(baseline::render_baseline_diff(baseline::diff_baselines(nullptr, b)),
            "new baseline: 1 keys\n");
}

TEST(gate_BaselineSave, ErrorLeavesTheOldFileUntouched) {
  const auto dir = testing::fresh_temp_dir("baseline-save");
  const auto path = dir / "cpu-test-2c.json";
  Baseline b = baseline::create_baseline(three_runs(), options()).baseline;
  save_baseline(path, b);
  const std::string before = read_file(path);
  ASSERT_FALSE(before.empty());
  b.entries.begin()->second.time_us.median = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(save_baseline(path, b), InputError);
  EXPECT_EQ(read_file(path), before);
  // No temporary file left behind either.
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& f : std::filesystem::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 1u);
  std::filesystem::remove_all(dir);
}

TEST(gate_BaselineSave, UpdateWithBadRunsNeverWrites) {
  const auto dir = testing::fresh_temp_dir("baseline-update");
  const auto path = dir / "b.json";
  const Baseline old = baseline::create_baseline(three_runs(), options()).baseline;
  save_baseline(path, old);
  const std::string before = read_file(path);
  RunSpec incomplete;
  incomplete.complete = false;
  std::vector<RunRecord> two{run_with_times("x1", {1, 2, 3}),
                             run_with_times("x2", {1, 2, 3}, incomplete)};
  EXPECT_THROW(baseline::update_baseline_window(load_baseline(path), two, "now"), InputError);
  EXPECT_EQ(read_file(path), before);
  std::filesystem::remove_all(dir);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
