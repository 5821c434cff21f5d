// `baseline update`: passing launches join each key's rolling window; failing ones never do; the
// diff says which bands moved, from how many launches.
#include "harness/baseline/baseline_window.hpp"

#include <set>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "harness/baseline/baseline_diff.hpp"
#include "harness/baseline/baseline_sessions.hpp"
#include "harness/baseline/baseline_status.hpp"
#include "harness/gate/compare.hpp"
#include "tests/unit/gate/gate_fixtures.hpp"

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using testing::json;

RunRecord run_at(const std::string& id, double time_us) {
  testing::ResultSpec s;
  s.bytes = 64u << 20;
  s.time_us = {time_us, time_us * 1.001, time_us * 0.999};
  testing::RunSpec rs;
  rs.run_id = id;
  return testing::to_run(testing::make_run(rs, {testing::make_result(s)}));
}

Baseline three_launch_baseline() {
  baseline::BaselineBuildOptions o;
  o.now = "2026-12-01T00:00:00Z";
  // One session of synthetic launches: the one-level band these tests are about, without the
  // between-session allowance (sessions and hosts: variance_components_test.cpp).
  o.policy.session_allowance = 0;
  return baseline::create_baseline({run_at("b1", 1000), run_at("b2", 1010), run_at("b3", 990)}, o)
      .baseline;
}

TEST(gate_BaselineWindow, PassingLaunchesJoinTheWindowAndTheBandNarrows) {
  const Baseline old = three_launch_baseline();
  std::vector<RunRecord> nightly;
  for (int i = 0; i < 6; ++i)
    nightly.push_back(run_at("n" + std::to_string(i), 1000 + (i % 3 - 1) * 10.0));
  const baseline::WindowUpdate u =
      baseline::update_baseline_window(old, nightly, "2026-12-02T00:00:00Z");
  EXPECT_EQ(u.launches_merged, 6u);
  EXPECT_TRUE(u.not_merged.empty());
  const BaselineEntry& e = u.built.baseline.entries.begin()->second;
  EXPECT_EQ(e.time_us.run_medians.size(), 9u);
  EXPECT_EQ(e.provenance.runs_merged, 9);
  const baseline::BaselineDiff d = baseline::diff_baselines(&old, u.built.baseline);
  ASSERT_EQ(d.bands.size(), 1u);
  EXPECT_EQ(d.bands[0].launches_before, 3u);
  EXPECT_EQ(d.bands[0].launches_after, 9u);
  EXPECT_LT(d.bands[0].after,
            d.bands[0].before);  // same noise, more launches: t and sqrt(1+1/n) shrink
  const std::string text = baseline::render_baseline_diff(d);
  EXPECT_NE(text.find("moved bands (1)"), std::string::npos) << text;
  EXPECT_NE(text.find("(3 launches) ->"), std::string::npos) << text;
}

TEST(gate_BaselineWindow, RegressedLaunchIsNotMergedAndWindowIsBounded) {
  Baseline old = three_launch_baseline();
  old.policy.window = 4;
  std::vector<RunRecord> runs{run_at("slow", 1300), run_at("ok1", 1000), run_at("ok2", 1005)};
  const baseline::WindowUpdate u =
      baseline::update_baseline_window(old, runs, "2026-12-02T00:00:00Z");
  ASSERT_EQ(u.not_merged.size(), 1u);
  EXPECT_NE(u.not_merged[0].find("run slow: REGRESSION"), std::string::npos) << u.not_merged[0];
  const BaselineEntry& e = u.built.baseline.entries.begin()->second;
  ASSERT_EQ(e.time_us.run_medians.size(), 4u);  // 3 + 2 merged, oldest dropped
  EXPECT_DOUBLE_EQ(e.time_us.run_medians.front(), 1010);
  EXPECT_EQ(e.provenance.run_ids.back(), "ok2");
}

// Sessions s1, s2, ... are sittings hours apart (launches less than 30 minutes apart are one
// sitting, baseline_sessions.hpp): s<N> starts at N o'clock, its launches a minute apart.
RunRecord session_run(const std::string& session, int launch, double time_us) {
  RunRecord r = run_at(session + "-" + std::to_string(launch), time_us);
  const int hour = session.back() - '0';
  r.session_id = session;
  r.session_started_at = fmt::format("2026-12-01T{:02}:00:00Z", hour);
  r.started_at = fmt::format("2026-12-01T{:02}:{:02}:00Z", hour, launch);
  return r;
}

std::vector<RunRecord> session_runs(const std::string& session, double time_us) {
  std::vector<RunRecord> runs;
  for (int i = 0; i < 5; ++i) runs.push_back(session_run(session, i, time_us + i % 2));
  return runs;
}

std::size_t sessions_in(const MetricBaseline& m) {
  return std::set<std::string>(m.run_sessions.begin(), m.run_sessions.end()).size();
}

TEST(gate_BaselineWindow, CreateWidensTheWindowToTheLaunchesItReads) {
  baseline::BaselineBuildOptions o;
  o.now = "2026-12-01T00:00:00Z";
  o.policy.window = 4;
  std::vector<RunRecord> runs = session_runs("s1", 1000);
  for (const RunRecord& r : session_runs("s2", 1010)) runs.push_back(r);
  EXPECT_EQ(baseline::create_baseline(runs, o).baseline.policy.window, 10);
  o.policy.window = 40;  // a wider window stays
  EXPECT_EQ(baseline::create_baseline(runs, o).baseline.policy.window, 40);
}

TEST(gate_BaselineWindow, UpdateNeverDropsSessionsBelowMinSessions) {
  // Three sessions of five launches and a window of 4 (a policy written for one-launch sessions):
  // dropping whole sessions down to the window would leave one session and the allowance.
  baseline::BaselineBuildOptions o;
  o.now = "2026-12-01T00:00:00Z";
  std::vector<RunRecord> runs;
  for (const char* s : {"s1", "s2", "s3"})
    for (const RunRecord& r : session_runs(s, 1000)) runs.push_back(r);
  Baseline old = baseline::create_baseline(runs, o).baseline;
  old.policy.window = 4;
  ASSERT_EQ(old.policy.min_sessions, 3);
  const baseline::WindowUpdate u =
      baseline::update_baseline_window(old, session_runs("s4", 1002), "2026-12-02");
  EXPECT_EQ(u.launches_merged, 5u);
  const MetricBaseline& m = u.built.baseline.entries.begin()->second.time_us;
  // s1 goes (three sessions remain), s2..s4 stay whole although 15 launches exceed the window.
  EXPECT_EQ(sessions_in(m), 3u);
  EXPECT_EQ(m.run_medians.size(), 15u);
  EXPECT_EQ(m.run_sessions.front(), "s2");
  EXPECT_EQ(u.built.baseline.sessions.size(), 3u);
  EXPECT_EQ(u.built.baseline.entries.begin()->second.provenance.run_ids.size(), 15u);
  // With the window wide enough, every session stays.
  old.policy.window = 20;
  const baseline::WindowUpdate wide =
      baseline::update_baseline_window(old, session_runs("s4", 1002), "2026-12-02");
  EXPECT_EQ(sessions_in(wide.built.baseline.entries.begin()->second.time_us), 4u);
}

TEST(gate_Sittings, LaunchesLessThanThirtyMinutesApartAreOneSittingWhateverTheirSessionIds) {
  // Issue 53: five `run --no-compare` launches within a minute are five session ids, one sitting.
  std::vector<RunRecord> runs;
  for (int i = 0; i < 5; ++i) {
    RunRecord r = run_at("quick-" + std::to_string(i), 1000 + i);
    r.session_id = "run-" + std::to_string(i);
    r.session_started_at = fmt::format("2026-12-01T04:36:{:02}Z", 10 * i);
    r.started_at = r.session_started_at;
    runs.push_back(r);
  }
  RunRecord later = run_at("later", 1001);  // 31 minutes after the last: a new sitting
  later.session_id = "run-later";
  later.started_at = later.session_started_at = "2026-12-01T05:07:41Z";
  runs.push_back(later);
  const std::vector<baseline::RunSession> sittings = baseline::sessions_of_runs(runs);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(sittings[static_cast<std::size_t>(i)].id, "run-0");
  EXPECT_EQ(sittings[5].id, "run-later");
  EXPECT_EQ(sittings[5].started_at, "2026-12-01T05:07:41Z");
}

TEST(gate_Sittings, OneSittingGatesNoKeyAndSaysSoThreeSittingsGate) {
  baseline::BaselineBuildOptions o;
  o.now = "2026-12-02T00:00:00Z";
  std::vector<RunRecord> one;
  for (int i = 0; i < 5; ++i) {
    RunRecord r = session_run("s1", i, 1000 + i % 2);
    r.session_id = "run-" + std::to_string(i);  // five invocations of `run`, one sitting
    one.push_back(r);
  }
  const Baseline single = baseline::create_baseline(one, o).baseline;
  EXPECT_EQ(single.sessions.size(), 1u);
  const baseline::BaselineStatus status = baseline::baseline_status(single);
  EXPECT_EQ(status.gateable, 0u);
  EXPECT_EQ(status.unmeasured, status.keys.size());
  EXPECT_NE(
      baseline::render_baseline_status(status, false).find("between-sitting noise unmeasured"),
      std::string::npos);
  EXPECT_NE(baseline::baseline_gateability_warning(status).find("between-sitting noise unmeasured"),
            std::string::npos);
  // A launch judged against it, however slow, is UNMEASURED: not gated, never failed.
  const verdict::Comparison slow = compare_run(run_at("slow", 5000), &single, {});
  ASSERT_EQ(slow.keys.size(), 1u);
  EXPECT_EQ(slow.keys[0].verdict, verdict::Verdict::unmeasured) << slow.keys[0].reason;
  EXPECT_NE(slow.keys[0].reason.find("not gated: between-sitting noise unmeasured"),
            std::string::npos);
  EXPECT_EQ(slow.exit_code, ExitCode::pass);

  std::vector<RunRecord> three;
  for (const char* s : {"s1", "s2", "s3"})
    for (const RunRecord& r : session_runs(s, 1000)) three.push_back(r);
  const Baseline measured = baseline::create_baseline(three, o).baseline;
  EXPECT_EQ(measured.sessions.size(), 3u);
  EXPECT_EQ(baseline::baseline_status(measured).gateable, 1u);
  EXPECT_EQ(compare_run(run_at("slow", 5000), &measured, {}).keys[0].verdict,
            verdict::Verdict::regression);
}

TEST(gate_BaselineWindow, RefusesARunAlreadyMergedOrIncomplete) {
  const Baseline old = three_launch_baseline();
  EXPECT_THROW(baseline::update_baseline_window(old, {run_at("b2", 1000)}, "now"), InputError);
  EXPECT_THROW(baseline::update_baseline_window(old, {}, "now"), InputError);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
