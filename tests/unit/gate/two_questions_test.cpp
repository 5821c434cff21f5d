// "Judge the change, not the runner" (harness/gate/runner_split.hpp, host_history.hpp,
// outcome.hpp): the change verdict against this host's own level, the runner verdict against the
// fleet, and which of them the exit code answers (--gate). Synthetic runs through the real loader;
// the expected verdicts follow from the numbers by hand: a 64 MiB all_reduce with 0.3 % noise has
// the 3 % large-size floor as its band, so 25 % slower is far outside it and 0.5 % is inside.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "harness/baseline/baseline_builder.hpp"
#include "harness/gate/drift.hpp"
#include "harness/gate/host_history.hpp"
#include "harness/gate/judge_run.hpp"
#include "harness/gate/outcome.hpp"
#include "harness/store/stored_run.hpp"
#include "harness/verdict/comparison_json.hpp"
#include "tests/unit/gate/gate_fixtures.hpp"

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using testing::ResultSpec;
using testing::RunSpec;

constexpr std::uint64_t kLarge = 64u << 20;
constexpr std::uint64_t kSmall = 8 * 1024;

double base_time(std::uint64_t bytes) { return 5.0 + static_cast<double>(bytes) / 2000.0; }

// `slowdown` > 1: the launch takes that much longer (bandwidth 1/slowdown).
std::vector<ResultSpec> launch(unsigned seed, double slowdown = 1.0) {
  std::vector<ResultSpec> out;
  for (const std::uint64_t bytes : {kSmall, kLarge}) {
    ResultSpec s;
    s.bytes = bytes;
    s.time_us = testing::noisy(base_time(bytes) * (bytes == kLarge ? slowdown : 1.0), 0.003, 5,
                               seed + static_cast<unsigned>(bytes % 97));
    out.push_back(s);
  }
  return out;
}

RunRecord run_of(const std::string& id, const std::vector<ResultSpec>& specs,
                 const std::string& host, RunSpec rs = {}) {
  rs.run_id = id;
  std::vector<testing::json> results;
  for (const ResultSpec& s : specs) results.push_back(testing::make_result(s));
  RunRecord r = testing::to_run(testing::make_run(rs, results));
  // What the fingerprint's software fields say; the baseline keeps its last run's, so every run
  // here compares fingerprints (a run without one cannot say its software is unchanged).
  r.fingerprint.detail = {{"mpi", rs.versions.value("mpi", "")},
                          {"nccl", rs.versions.value("nccl", "")},
                          {"hostname", host}};
  r.host_id = host;
  r.suite = "cpu";
  r.scenario = "default";
  return r;
}

// The fleet: three launches of another host.
Baseline fleet_baseline(const std::vector<double>& slowdowns = {1, 1, 1}) {
  std::vector<RunRecord> records;
  for (unsigned i = 0; i < slowdowns.size(); ++i) {
    records.push_back(
        run_of("fleet-" + std::to_string(i), launch(10 + i, slowdowns[i]), "fleethost0001"));
  }
  baseline::BaselineBuildOptions o;
  o.now = "2026-11-29T00:00:00Z";
  o.policy.session_allowance = 0;
  Baseline b = baseline::create_baseline(records, o).baseline;
  b.source = "baselines/cpu-test-2c/cpu.json";
  return b;
}

// Earlier runs of `host` as the store returns them, with the verdict each was recorded with.
RunHistory history_of(const std::string& host, const std::vector<double>& slowdowns,
                      const std::vector<std::string>& verdicts,
                      const std::string& prefix = "earlier-") {
  RunHistory h;
  h.source = "sqlite:test";
  for (std::size_t i = 0; i < slowdowns.size(); ++i) {
    const unsigned seed = 40 + static_cast<unsigned>(i) + (prefix == "earlier-" ? 0 : 500);
    const RunRecord r = run_of(prefix + std::to_string(i), launch(seed, slowdowns[i]), host);
    HistoryRun hr{r.run_id, host, {}, prefix + "session-" + std::to_string(i), "cpu", "default"};
    for (const BenchmarkResult& b : r.benchmarks)
      hr.medians.push_back({b.key, b.time_us, b.algbw_GBps, b.busbw_GBps, verdicts[i]});
    h.runs.push_back(std::move(hr));
  }
  return h;
}

verdict::Comparison judge(const RunRecord& run, const Baseline& b, verdict::GateMode mode,
                          const RunHistory* history = nullptr) {
  JudgeOptions o;
  o.compare.gate = mode;
  o.confirm.launches = 0;
  return judge_run(run, &b, {}, history, o);
}

const verdict::KeyComparison& large_key(const verdict::Comparison& c) {
  for (const verdict::KeyComparison& k : c.keys) {
    if (k.bytes == kLarge) return k;
  }
  throw std::runtime_error("no large key");
}

const verdict::ClusterFinding* finding(const verdict::Comparison& c, const std::string& id) {
  for (const verdict::ClusterFinding& f : c.cluster_findings) {
    if (f.id == id) return &f;
  }
  return nullptr;
}

TEST(gate_TwoQuestions, ANewHostOutsideTheFleetIsNotBlamedForTheChange) {
  const Baseline b = fleet_baseline();
  const RunRecord run = run_of("new-1", launch(70, 1 / 0.75), "newhost00001");
  const verdict::Comparison c = judge(run, b, verdict::GateMode::change);
  const verdict::KeyComparison& k = large_key(c);
  EXPECT_EQ(k.verdict, verdict::Verdict::runner_differs) << k.reason;
  EXPECT_TRUE(k.outside_fleet);
  EXPECT_LT(k.fleet_offset_sd, 0);
  EXPECT_NE(k.reason.find("the software equals the baseline's, so the runner differs"),
            std::string::npos)
      << k.reason;
  EXPECT_EQ(c.exit_code, ExitCode::infra_failure);  // not judged here: never a pass, never 1
  EXPECT_EQ(c.headline().rfind("RUNNER DIFFERS, CHANGE NOT JUDGED HERE: 1 of 2 keys", 0), 0u)
      << c.headline();
  const verdict::ClusterFinding* f = finding(c, "HOST-OUTLIER");
  ASSERT_NE(f, nullptr);
  EXPECT_FALSE(f->fails_gate);
  EXPECT_EQ(f->field, "newhost00001");
  EXPECT_NE(f->text.find("-25."), std::string::npos) << f->text;
  EXPECT_NE(c.runner_line().find("HOST-OUTLIER host newhost00001"), std::string::npos);
  EXPECT_NE(c.change_line().find("NOT JUDGED on 1 key"), std::string::npos) << c.change_line();
}

TEST(gate_TwoQuestions, ABusyLaunchPlansNoDrainForItsOffset) {
  // Issue 55: the offset of a launch on a busy runner may be the load's, never a drain.
  const Baseline b = fleet_baseline();
  RunRecord run = run_of("new-1", launch(70, 1 / 0.75), "newhost00001");
  run.fingerprint.document["host"]["hostname"] = "gpu-node-7";  // a node to act on
  const verdict::Comparison quiet = judge(run, b, verdict::GateMode::change);
  ASSERT_NE(finding(quiet, "HOST-OUTLIER"), nullptr);
  ASSERT_FALSE(quiet.node_actions.empty());
  run.host_cpu_pressure = 0.9;  // a task waited for a CPU 90 % of the launch (threshold 25 %)
  const verdict::Comparison busy = judge(run, b, verdict::GateMode::change);
  EXPECT_TRUE(busy.runner_busy) << busy.headline();
  EXPECT_EQ(busy.exit_code, ExitCode::infra_failure);
  ASSERT_NE(finding(busy, "HOST-OUTLIER"), nullptr);  // still reported
  EXPECT_TRUE(busy.node_actions.empty());
  // Nor beside a software change (a TCP fall-back makes every host an outlier): as `nodes` does.
  RunSpec changed;
  changed.versions = {{"driver", ""}, {"nccl", "2.29.7"}, {"mpi", "Open MPI 4.1.6"}};
  RunRecord upgraded = run_of("new-2", launch(70, 1 / 0.75), "newhost00001", changed);
  upgraded.fingerprint.document["host"]["hostname"] = "gpu-node-7";
  const verdict::Comparison after_change = judge(upgraded, b, verdict::GateMode::change);
  ASSERT_NE(finding(after_change, "HOST-OUTLIER"), nullptr);
  EXPECT_FALSE(after_change.software_changes.empty());
  EXPECT_TRUE(after_change.node_actions.empty());
}

TEST(gate_TwoQuestions, FleetModeFailsTheOutlierAndBothModeKeepsTheRegression) {
  const Baseline b = fleet_baseline();
  const RunRecord run = run_of("new-1", launch(70, 1 / 0.75), "newhost00001");
  const verdict::Comparison fleet = judge(run, b, verdict::GateMode::fleet);
  EXPECT_EQ(large_key(fleet).verdict, verdict::Verdict::regression);
  EXPECT_EQ(fleet.exit_code, ExitCode::gate_failure);
  ASSERT_NE(finding(fleet, "HOST-OUTLIER"), nullptr);
  EXPECT_TRUE(finding(fleet, "HOST-OUTLIER")->fails_gate);
  const verdict::Comparison both = judge(run, b, verdict::GateMode::both);
  EXPECT_EQ(large_key(both).verdict, verdict::Verdict::regression);
  EXPECT_EQ(both.exit_code, ExitCode::gate_failure);
  EXPECT_EQ(finding(both, "HOST-OUTLIER"), nullptr);  // the REGRESSION already says it
}

TEST(gate_TwoQuestions, ChangedSoftwareOnANewHostSaysWhatWouldJudgeIt) {
  const Baseline b = fleet_baseline();
  RunSpec rs;
  rs.versions = {{"driver", ""}, {"nccl", "2.29.7"}, {"mpi", "Open MPI 4.1.6"}};
  const RunRecord run = run_of("new-1", launch(70, 1 / 0.75), "newhost00001", rs);
  const verdict::Comparison c = judge(run, b, verdict::GateMode::change);
  const verdict::KeyComparison& k = large_key(c);
  EXPECT_EQ(k.verdict, verdict::Verdict::runner_differs);
  EXPECT_NE(k.reason.find("the software changed too (nccl 2.28.3 -> 2.29.7)"), std::string::npos)
      << k.reason;
  EXPECT_NE(k.reason.find("fabricgate ab"), std::string::npos);
  EXPECT_EQ(c.exit_code, ExitCode::infra_failure);
}

TEST(gate_TwoQuestions, AHostWithHistoryIsJudgedAroundItsOwnLevel) {
  const Baseline b = fleet_baseline();
  // Four earlier runs of this host at its own level, 25 % under the fleet.
  const RunHistory h = history_of("slowhost0001", {1 / 0.75, 1 / 0.75, 1 / 0.75, 1 / 0.75},
                                  {"RUNNER-DIFFERS", "PASS", "PASS", "RUNNER-DIFFERS"});
  const RunRecord same = run_of("now", launch(80, 1 / 0.75), "slowhost0001");
  const verdict::Comparison c = judge(same, b, verdict::GateMode::change, &h);
  const verdict::KeyComparison& k = large_key(c);
  EXPECT_EQ(k.verdict, verdict::Verdict::pass) << k.reason;
  ASSERT_TRUE(k.judgement.has_value());
  EXPECT_EQ(k.judgement->reference, "host-history");
  ASSERT_TRUE(k.fleet.has_value());
  EXPECT_TRUE(k.outside_fleet);  // its level and this launch are both beyond the fleet band
  EXPECT_EQ(c.exit_code, ExitCode::pass);
  ASSERT_NE(finding(c, "HOST-OUTLIER"), nullptr);  // the runner question still names it
  EXPECT_FALSE(finding(c, "HOST-OUTLIER")->fails_gate);
  // The same runs asked the fleet question fail on the runner.
  EXPECT_EQ(judge(same, b, verdict::GateMode::fleet, &h).exit_code, ExitCode::gate_failure);
}

TEST(gate_TwoQuestions, AHostThatGetsSlowerThanItWasFails) {
  const Baseline b = fleet_baseline();
  const RunHistory h = history_of("slowhost0001", {1 / 0.75, 1 / 0.75, 1 / 0.75, 1 / 0.75},
                                  {"PASS", "PASS", "PASS", "PASS"});
  // 8 % slower than its own level (the band is the 3 % floor).
  const RunRecord worse = run_of("now", launch(81, 1 / (0.75 * 0.92)), "slowhost0001");
  const verdict::Comparison c = judge(worse, b, verdict::GateMode::change, &h);
  EXPECT_EQ(large_key(c).verdict, verdict::Verdict::regression) << large_key(c).reason;
  // The software is the baseline's: nothing the change question compares changed, so the runner
  // did. "Runner degraded", exit 3, never a pass and never blamed on the change.
  EXPECT_TRUE(c.runner_degraded);
  EXPECT_EQ(c.exit_code, ExitCode::infra_failure);
  EXPECT_EQ(c.headline().rfind("RUNNER DEGRADED, CHANGE NOT BLAMED: 1 of 2 keys", 0), 0u)
      << c.headline();
  EXPECT_NE(c.change_line().find("Change: not blamed, 1 key(s)"), std::string::npos)
      << c.change_line();
  EXPECT_NE(c.runner_line().find("Runner: degraded: 1 key(s)"), std::string::npos)
      << c.runner_line();
  const nlohmann::json j = verdict::comparison_to_json(c);
  EXPECT_EQ(j.at("change").at("verdict"), "NOT-JUDGED") << j.at("change").dump();
  EXPECT_EQ(j.at("runner").at("verdict"), "DEGRADED") << j.at("runner").dump();
  EXPECT_EQ(j.at("runner_degraded"), true);
  // The same launch with changed software is the change's failure.
  RunSpec changed;
  changed.versions = {{"driver", ""}, {"nccl", "2.29.7"}, {"mpi", "Open MPI 4.1.6"}};
  const verdict::Comparison upgraded =
      judge(run_of("now", launch(81, 1 / (0.75 * 0.92)), "slowhost0001", changed), b,
            verdict::GateMode::change, &h);
  EXPECT_EQ(large_key(upgraded).verdict, verdict::Verdict::regression)
      << large_key(upgraded).reason;
  EXPECT_FALSE(upgraded.runner_degraded);
  EXPECT_EQ(upgraded.exit_code, ExitCode::gate_failure);
  EXPECT_NE(upgraded.change_line().find("Change: FAIL"), std::string::npos)
      << upgraded.change_line();
  // --gate fleet asks about the runner: a slower runner fails there.
  EXPECT_EQ(judge(worse, b, verdict::GateMode::fleet, &h).exit_code, ExitCode::gate_failure);
}

TEST(gate_TwoQuestions, FailedLaunchesNeverBecomeTheHostsLevel) {
  const Baseline b = fleet_baseline();
  // Three runs at the fleet's level, then two that regressed by 10 % (recorded as such).
  const RunHistory h = history_of("host00000001", {1, 1, 1, 1 / 0.9, 1 / 0.9},
                                  {"PASS", "PASS", "PASS", "REGRESSION", "REGRESSION"});
  const RunRecord still = run_of("now", launch(82, 1 / 0.9), "host00000001");
  const verdict::Comparison c = judge(still, b, verdict::GateMode::change, &h);
  EXPECT_EQ(large_key(c).verdict, verdict::Verdict::regression) << large_key(c).reason;
  EXPECT_EQ(large_key(c).judgement->reference, "host-history");
  EXPECT_EQ(large_key(c).judgement->launches, 3u);
}

// The TCP fall-back case: three earlier runs of a new host with changed software were not judged
// (RUNNER-DIFFERS, exit 3). They never become the level its fourth run passes against; with the
// baseline's software the same launches are the host's own level.
TEST(gate_TwoQuestions, UnjudgedLaunchesOfChangedSoftwareNeverBecomeTheLevel) {
  const Baseline b = fleet_baseline();
  const RunHistory h = history_of("newhost00001", {1 / 0.75, 1 / 0.75, 1 / 0.75},
                                  {"RUNNER-DIFFERS", "RUNNER-DIFFERS", "RUNNER-DIFFERS"});
  RunSpec changed;
  changed.versions = {{"driver", ""}, {"nccl", "2.29.7"}, {"mpi", "Open MPI 4.1.6"}};
  const verdict::Comparison c = judge(run_of("now", launch(85, 1 / 0.75), "newhost00001", changed),
                                      b, verdict::GateMode::change, &h);
  const verdict::KeyComparison& k = large_key(c);
  EXPECT_EQ(k.verdict, verdict::Verdict::runner_differs) << k.reason;
  EXPECT_EQ(k.judgement->reference, "fleet");
  EXPECT_EQ(c.exit_code, ExitCode::infra_failure);  // never a pass

  const verdict::Comparison same =
      judge(run_of("now", launch(85, 1 / 0.75), "newhost00001"), b, verdict::GateMode::change, &h);
  EXPECT_EQ(large_key(same).verdict, verdict::Verdict::pass) << large_key(same).reason;
  EXPECT_EQ(large_key(same).judgement->reference, "host-history");
  EXPECT_EQ(large_key(same).judgement->launches, 3u);
}

// One slow spell that was not confirmed (AMBIGUOUS) is not the host's level: it would widen the
// band until a loss of its size passes. The verdict table's joins_window decides, as for
// `baseline update`.
TEST(gate_TwoQuestions, AnAmbiguousDipNeverBecomesTheLevel) {
  const Baseline b = fleet_baseline();
  const RunHistory h = history_of("host00000001", {1, 1, 1, 1 / 0.7, 1},
                                  {"PASS", "PASS", "PASS", "AMBIGUOUS", "JITTER"});
  const verdict::Comparison c =
      judge(run_of("now", launch(86, 1 / 0.7), "host00000001"), b, verdict::GateMode::change, &h);
  EXPECT_EQ(large_key(c).verdict, verdict::Verdict::regression) << large_key(c).reason;
  EXPECT_EQ(large_key(c).judgement->reference, "host-history");
  EXPECT_EQ(large_key(c).judgement->launches, 3u);
  EXPECT_EQ(c.exit_code, ExitCode::infra_failure);  // the software is the baseline's
  EXPECT_TRUE(c.runner_degraded);
  EXPECT_FALSE(verdict_keeps_host_level("AMBIGUOUS", true));
  EXPECT_FALSE(verdict_keeps_host_level("NEW", true));
  EXPECT_FALSE(verdict_keeps_host_level("UNSTABLE", true));
  EXPECT_TRUE(verdict_keeps_host_level("NOISY", true));
  EXPECT_TRUE(verdict_keeps_host_level("IMPROVEMENT", false));
  EXPECT_TRUE(verdict_keeps_host_level("RUNNER-DIFFERS", true));
  EXPECT_FALSE(verdict_keeps_host_level("RUNNER-DIFFERS", false));
  EXPECT_FALSE(verdict_keeps_host_level("REGRESSION", true));
}

// A host inside the fleet whose own launches are so noisy that its band is NOISY gates no fewer
// keys than the fleet file: its band gives way to the fleet's, and a 10 % loss fails.
TEST(gate_TwoQuestions, ANoisyOwnLevelInsideTheFleetGivesWayToTheFleetBand) {
  const Baseline b = fleet_baseline();
  const RunHistory h = history_of("host00000001", {1, 1.15, 0.88, 1.12, 0.9},
                                  {"PASS", "PASS", "PASS", "PASS", "PASS"});
  const verdict::Comparison c =
      judge(run_of("now", launch(87, 1 / 0.9), "host00000001"), b, verdict::GateMode::change, &h);
  EXPECT_EQ(large_key(c).verdict, verdict::Verdict::regression) << large_key(c).reason;
  EXPECT_EQ(large_key(c).judgement->reference, "fleet-for-host");
  EXPECT_NE(large_key(c).judgement->band_scope.find(", NOISY) is wider than the fleet's"),
            std::string::npos)
      << large_key(c).judgement->band_scope;
  EXPECT_EQ(c.exit_code, ExitCode::infra_failure);  // judged (not RUNNER-DIFFERS): degraded
  EXPECT_TRUE(c.runner_degraded);
  // An own band that is wider but not NOISY keeps judging the host: inside the fleet band but off
  // its centre, its ordinary launches reach beyond the fleet's edge.
  const RunHistory wider = history_of("host00000001", {1, 1.02, 0.985, 1.015, 0.99},
                                      {"PASS", "PASS", "PASS", "PASS", "PASS"});
  const verdict::Comparison own =
      judge(run_of("now", launch(87, 1.01), "host00000001"), b, verdict::GateMode::change, &wider);
  EXPECT_EQ(large_key(own).judgement->reference, "host-history");
  EXPECT_EQ(large_key(own).verdict, verdict::Verdict::pass) << large_key(own).reason;
}

// The store's newest runs of a host (`rolling`) and its oldest ones (`first`), as load_history
// reads them.
RunHistory rolling_and_first(const std::string& host, const std::vector<double>& rolling,
                             const std::vector<std::string>& rolling_verdicts,
                             const std::vector<double>& first) {
  RunHistory h = history_of(host, rolling, rolling_verdicts);
  h.earliest =
      history_of(host, first, std::vector<std::string>(first.size(), "PASS"), "first-").runs;
  return h;
}

// A slow slide joins the rolling level a little at a time; the host's first level does not move,
// and a launch beyond its band fails against it, reported against it.
TEST(gate_TwoQuestions, ASlowSlideIsMeasuredFromTheHostsFirstLevel) {
  const Baseline b = fleet_baseline();
  const double level = 1 / 0.75;  // a host 25 % under the fleet, outside it
  const RunHistory h =
      rolling_and_first("slowhost0001", {level / 0.96, level / 0.95, level / 0.95, level / 0.95},
                        {"PASS", "PASS", "PASS", "PASS"}, {level, level, level, level});
  const verdict::Comparison slid = judge(run_of("now", launch(88, level / 0.94), "slowhost0001"), b,
                                         verdict::GateMode::change, &h);
  const verdict::KeyComparison& k = large_key(slid);
  EXPECT_EQ(k.verdict, verdict::Verdict::regression) << k.reason;
  ASSERT_TRUE(k.judgement.has_value());
  EXPECT_EQ(k.judgement->reference, "host-anchor");
  EXPECT_NEAR(k.judgement->performance_ratio, 0.94, 0.01);  // from the first level, not -1 %
  EXPECT_NE(k.judgement->band_scope.find("host slowhost0001's first level (3 launches"),
            std::string::npos)
      << k.judgement->band_scope;
  EXPECT_NE(k.judgement->band_scope.find("has moved -5.0 % from it"), std::string::npos)
      << k.judgement->band_scope;
  EXPECT_EQ(slid.exit_code, ExitCode::infra_failure);  // software unchanged: runner degraded
  EXPECT_TRUE(slid.runner_degraded);
  // At the rolling level's own value, and at the first level, it passes: the anchor adds no
  // failure to a host that did not move.
  const RunHistory quiet =
      rolling_and_first("slowhost0001", {level, level, level, level},
                        {"PASS", "PASS", "PASS", "PASS"}, {level, level, level, level});
  const verdict::Comparison same =
      judge(run_of("now", launch(89, level), "slowhost0001"), b, verdict::GateMode::change, &quiet);
  EXPECT_EQ(large_key(same).verdict, verdict::Verdict::pass) << large_key(same).reason;
  EXPECT_EQ(large_key(same).judgement->reference, "host-history");
  EXPECT_EQ(same.exit_code, ExitCode::pass);
}

// A host that started inside the fleet is held to its first level however its rolling level
// moves: a launch its slid rolling level passes, beyond the fleet's edge as well, fails.
TEST(gate_TwoQuestions, AHostThatStartedInsideTheFleetIsHeldToItsFirstLevel) {
  // Three fleet launches that spread 1 %; twelve of the host's own make its band the narrower.
  const Baseline b = fleet_baseline({1, 1.01, 0.99});
  const double slid = 1 / 0.975;  // still inside the fleet's band
  const RunHistory h = rolling_and_first("host00000001", std::vector<double>(12, slid),
                                         std::vector<std::string>(12, "PASS"), {1, 1, 1, 1});
  // Where the two bands' lower edges lie: a launch between them passes the rolling level only.
  const verdict::Comparison probe =
      judge(run_of("probe", launch(90, slid), "host00000001"), b, verdict::GateMode::change, &h);
  ASSERT_TRUE(large_key(probe).fleet.has_value());
  const verdict::MetricJudgement& rolling = *large_key(probe).judgement;
  const verdict::MetricJudgement& fleet = *large_key(probe).fleet;
  ASSERT_EQ(rolling.reference, "host-history");
  ASSERT_EQ(rolling.metric, verdict::Metric::busbw_GBps);
  ASSERT_LT(rolling.lower_limit, fleet.lower_limit);  // the slid level reaches below the fleet
  const double between = (rolling.lower_limit + fleet.lower_limit) / 2;
  const double slowdown = rolling.current_median / between * slid;
  const verdict::Comparison c =
      judge(run_of("now", launch(90, slowdown), "host00000001"), b, verdict::GateMode::change, &h);
  EXPECT_EQ(large_key(c).verdict, verdict::Verdict::regression) << large_key(c).reason;
  EXPECT_EQ(large_key(c).judgement->reference, "host-anchor");
  EXPECT_NE(large_key(c).judgement->band_scope.find("host host00000001's first level (3 launches"),
            std::string::npos)
      << large_key(c).judgement->band_scope;
}

// A step that failed every launch since leaves the rolling level empty: the first level still
// judges the key, so it stays REGRESSION instead of turning into RUNNER-DIFFERS.
TEST(gate_TwoQuestions, AFailureStaysFailedWhenNoNewerLaunchJoined) {
  const Baseline b = fleet_baseline();
  const double level = 1 / 0.75;
  const std::vector<double> stepped(19, level / 0.94);
  const RunHistory h =
      rolling_and_first("slowhost0001", stepped, std::vector<std::string>(19, "REGRESSION"),
                        {level, level, level, level});
  const verdict::Comparison c = judge(run_of("now", launch(91, level / 0.94), "slowhost0001"), b,
                                      verdict::GateMode::change, &h);
  const verdict::KeyComparison& k = large_key(c);
  EXPECT_EQ(k.verdict, verdict::Verdict::regression) << k.reason;
  EXPECT_EQ(k.judgement->reference, "host-anchor");
  EXPECT_NE(k.judgement->band_scope.find("none of its newer launches joined"), std::string::npos)
      << k.judgement->band_scope;
  EXPECT_EQ(c.exit_code, ExitCode::infra_failure);  // run after run: degraded, never a pass
  EXPECT_TRUE(c.runner_degraded);
  // A host that started inside the fleet: the fleet's band is its first level, and judges it as
  // a known host.
  const RunHistory inside =
      rolling_and_first("host00000001", std::vector<double>(19, 1 / 0.94),
                        std::vector<std::string>(19, "REGRESSION"), {1, 1, 1, 1});
  const verdict::Comparison still = judge(run_of("now", launch(92, 1 / 0.94), "host00000001"), b,
                                          verdict::GateMode::change, &inside);
  EXPECT_EQ(large_key(still).verdict, verdict::Verdict::regression) << large_key(still).reason;
  EXPECT_EQ(large_key(still).judgement->reference, "host-anchor");
  EXPECT_EQ(still.exit_code, ExitCode::infra_failure);
  EXPECT_TRUE(still.runner_degraded);
  // Without the first runs (a store that never had them) it is the fleet's outlier, not judged.
  RunHistory rolling_only = h;
  rolling_only.earliest.clear();
  EXPECT_EQ(large_key(judge(run_of("now", launch(91, level / 0.94), "slowhost0001"), b,
                            verdict::GateMode::change, &rolling_only))
                .verdict,
            verdict::Verdict::runner_differs);
}

// A launch measured while the runner was busy is recorded, marked, and never joins the level:
// one busy launch must not widen the host's band until a real loss passes.
TEST(gate_TwoQuestions, ABusyLaunchIsRecordedButNeverJoinsTheLevel) {
  const Baseline b = fleet_baseline();
  RunRecord busy = run_of("busy-1", launch(93, 3.0), "host00000001");
  busy.host_cpu_pressure = 0.6;  // above the policy's busy_cpu_pressure (0.25)
  const verdict::Comparison c = judge(busy, b, verdict::GateMode::change);
  EXPECT_TRUE(measured_on_busy_runner(c));
  const store::StoredRun stored = store::stored_run_from(busy, &c);
  ASSERT_FALSE(stored.medians.empty());
  for (const store::StoredMedian& m : stored.medians) EXPECT_EQ(m.verdict, "RUNNER-BUSY") << m.key;
  EXPECT_FALSE(verdict_keeps_host_level(kBusyLaunchVerdict, true));
  // The same launch on a quiet runner keeps its verdicts.
  RunRecord quiet = run_of("quiet-1", launch(94), "host00000001");
  quiet.host_cpu_pressure = 0.04;
  const verdict::Comparison q = judge(quiet, b, verdict::GateMode::change);
  EXPECT_FALSE(measured_on_busy_runner(q));
  for (const store::StoredMedian& m : store::stored_run_from(quiet, &q).medians)
    EXPECT_EQ(m.verdict, "PASS") << m.key;
  // Three quiet launches and a busy one: the level is the three quiet ones.
  RunHistory h = history_of("host00000001", {1, 1, 1}, {"PASS", "PASS", "PASS"});
  HistoryRun hr{"busy-1", "host00000001", {}, "session-busy", "cpu", "default"};
  for (const store::StoredMedian& m : stored.medians)
    hr.medians.push_back({m.key, m.time_us, m.algbw_GBps, m.busbw_GBps, m.verdict});
  h.runs.push_back(std::move(hr));
  const HostHistory host = host_history_from(h, quiet, true);
  ASSERT_FALSE(host.launches.empty());
  for (const auto& [key, metrics] : host.launches) {
    for (const auto& launches : metrics) EXPECT_LE(launches.size(), 3u) << key;
  }
}

// Nor does a busy runner's launch make a DRIFT series: the same four slower launches drift when
// they were quiet, and do not when they were recorded busy.
TEST(gate_TwoQuestions, BusyLaunchesAreNotPartOfADriftSeries) {
  const Baseline b = fleet_baseline();
  std::vector<double> levels(17, 1.0);
  std::vector<std::string> verdicts(17, "PASS");
  for (int i = 0; i < 4; ++i) {
    levels.push_back(1 / 0.975);
    verdicts.push_back("PASS");
  }
  const RunRecord now = run_of("now", launch(95, 1 / 0.975), "host00000001");
  const RunHistory quiet = history_of("host00000001", levels, verdicts);
  EXPECT_EQ(large_key(judge(now, b, verdict::GateMode::change, &quiet)).verdict,
            verdict::Verdict::drift);
  std::fill(verdicts.begin() + 17, verdicts.end(), std::string(kBusyLaunchVerdict));
  const RunHistory busy = history_of("host00000001", levels, verdicts);
  EXPECT_NE(large_key(judge(now, b, verdict::GateMode::change, &busy)).verdict,
            verdict::Verdict::drift);
}

TEST(gate_TwoQuestions, TooLittleHistoryLeavesTheFleetAsReference) {
  const Baseline b = fleet_baseline();
  const RunHistory h = history_of("slowhost0001", {1 / 0.75, 1 / 0.75}, {"PASS", "PASS"});
  const verdict::Comparison c =
      judge(run_of("now", launch(83, 1 / 0.75), "slowhost0001"), b, verdict::GateMode::change, &h);
  EXPECT_EQ(large_key(c).verdict, verdict::Verdict::runner_differs);  // 2 launches < min_runs 3
  // Another host's runs in the same store are not this host's history.
  const RunHistory other =
      history_of("otherhost001", {1 / 0.75, 1 / 0.75, 1 / 0.75}, {"PASS", "PASS", "PASS"});
  EXPECT_EQ(large_key(judge(run_of("now", launch(83, 1 / 0.75), "slowhost0001"), b,
                            verdict::GateMode::change, &other))
                .verdict,
            verdict::Verdict::runner_differs);
}

TEST(gate_TwoQuestions, InsideTheFleetANewHostIsJudgedAgainstTheFleet) {
  const Baseline b = fleet_baseline();
  const verdict::Comparison ok =
      judge(run_of("now", launch(84, 1.005), "newhost00001"), b, verdict::GateMode::change);
  EXPECT_EQ(large_key(ok).verdict, verdict::Verdict::pass);
  EXPECT_EQ(large_key(ok).judgement->reference, "fleet");
  EXPECT_EQ(ok.exit_code, ExitCode::pass);
  EXPECT_EQ(finding(ok, "HOST-OUTLIER"), nullptr);
  EXPECT_NE(ok.runner_line().find("is like the fleet"), std::string::npos);
}

// DRIFT (drift.hpp): a run whose own value is back inside the threshold never drifts, and a step
// is still found.
TEST(gate_TwoQuestions, ARecoveredRunIsNotDrift) {
  std::vector<double> series(17, 100.0);
  for (std::size_t i = 0; i < series.size(); ++i) series[i] += (i % 3 == 0 ? 0.2 : -0.1);
  const std::vector<double> loaded{98.0, 92.5, 98.1, 92.4};
  series.insert(series.end(), loaded.begin(), loaded.end());
  DriftPolicy p;
  p.band_alpha = 0.01;
  // Ending on the loaded level it drifts; one more run back at +0.1 % has recovered.
  ASSERT_TRUE(detect_drift(series, true, p, stats::ChangePointOptions{}).has_value());
  std::vector<double> recovered = series;
  recovered.push_back(100.1);
  EXPECT_FALSE(detect_drift(recovered, true, p, stats::ChangePointOptions{}).has_value());
  std::vector<double> step(15, 100.0);
  for (std::size_t i = 0; i < step.size(); ++i) step[i] += (i % 2 == 0 ? 0.1 : -0.1);
  for (int i = 0; i < 6; ++i) step.push_back(85.0 + (i % 2 == 0 ? 0.1 : -0.1));
  const auto found = detect_drift(step, true, p, stats::ChangePointOptions{});
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->began_index, 15u);
}

// A fresh runner whose setup changed (gross_change.hpp): a key further below the fleet than any
// runner of the fleet has been, by the file's margin, is the change's REGRESSION; within that limit
// it stays RUNNER-DIFFERS with the paired check to run; with the baseline's software it stays
// RUNNER-DIFFERS however far it fell (the runner, not a change).
TEST(gate_TwoQuestions, AChangedSetupFarBeyondEveryRunnerOfTheFleetIsJudgedOnAFreshRunner) {
  const Baseline b = fleet_baseline();
  GrossChangeLimits limits;
  limits.source = "baselines/cpu-test-2c/gross-change.json";
  limits.platform = "cpu-test-2c";
  limits.factor = 0.5;
  limits.derived_from = "test";
  const RunRecord probe = run_of("probe", launch(96), "newhost00001");
  limits.keys[large_key(judge(probe, b, verdict::GateMode::change)).key] = {0.9, 30,
                                                                            3};  // limit 0.45
  const auto judged = [&](double slowdown, bool tcp) {
    RunRecord r = run_of("now", launch(97, slowdown), "newhost00001");
    if (tcp) r.fingerprint.detail["env/OMPI_MCA_btl"] = "tcp,self";
    JudgeOptions o;
    o.compare.gate = verdict::GateMode::change;
    o.compare.gross_change = &limits;
    o.confirm.launches = 0;
    return judge_run(r, &b, {}, nullptr, o);
  };
  const verdict::Comparison fell = judged(10, true);  // 0.1 of the fleet: beyond 0.45
  const verdict::KeyComparison& k = large_key(fell);
  EXPECT_EQ(k.verdict, verdict::Verdict::regression) << k.reason;
  EXPECT_EQ(k.reason.rfind("gross change: ", 0), 0u) << k.reason;
  EXPECT_NE(k.reason.find("env/OMPI_MCA_btl none -> tcp,self"), std::string::npos) << k.reason;
  EXPECT_EQ(fell.exit_code, ExitCode::gate_failure);
  EXPECT_EQ(fell.gross_change_keys, 1u);
  EXPECT_NE(fell.change_line().find("1 beyond the gross-change limit of baselines/cpu-test-2c"),
            std::string::npos)
      << fell.change_line();
  const verdict::Comparison within =
      judged(1 / 0.75, true);  // 0.75: outside the band, within the limit
  EXPECT_EQ(large_key(within).verdict, verdict::Verdict::runner_differs)
      << large_key(within).reason;
  EXPECT_NE(large_key(within).reason.find(
                "fabricgate ab --suite cpu --a unset=OMPI_MCA_btl --b OMPI_MCA_btl=tcp,self"),
            std::string::npos)
      << large_key(within).reason;
  EXPECT_EQ(within.exit_code, ExitCode::infra_failure);
  const verdict::Comparison same =
      judged(10, false);  // the baseline's software: the runner differs
  EXPECT_EQ(large_key(same).verdict, verdict::Verdict::runner_differs) << large_key(same).reason;
  EXPECT_EQ(same.gross_change_keys, 0u);
}

// A fleet of several hosts says how far a healthy host sits from its centre. A level the store
// taught that lies further (here twice as fast as the fleet: planted rows, or rows of a host that
// was never like this) is a finding, not the host's level: a quiet launch at the fleet's level is
// judged by the fleet, not failed on every key. A host within that spread keeps its own level.
TEST(gate_TwoQuestions, AStoredLevelNoHostOfTheFleetHadIsAFindingNotALevel) {
  std::vector<RunRecord> records;
  const std::vector<std::pair<std::string, double>> hosts = {
      {"fleethostaaaa", 1.0}, {"fleethostbbbb", 1.02}, {"fleethostcccc", 0.98}};
  unsigned seed = 10;
  for (const auto& [host, slowdown] : hosts) {
    for (int i = 0; i < 2; ++i)
      records.push_back(run_of(host + "-" + std::to_string(i), launch(seed++, slowdown), host));
  }
  baseline::BaselineBuildOptions o;
  o.now = "2026-11-29T00:00:00Z";
  o.policy.session_allowance = 0;
  Baseline b = baseline::create_baseline(records, o).baseline;
  b.source = "baselines/cpu-test-2c/cpu.json";

  const RunHistory fast =
      history_of("fasthost0001", {0.5, 0.5, 0.5, 0.5}, {"PASS", "PASS", "PASS", "PASS"});
  const verdict::Comparison c =
      judge(run_of("now", launch(90, 1.0), "fasthost0001"), b, verdict::GateMode::change, &fast);
  const verdict::KeyComparison& k = large_key(c);
  ASSERT_TRUE(k.judgement.has_value());
  EXPECT_TRUE(k.judgement->stored_level_set_aside);
  EXPECT_EQ(k.judgement->reference, "fleet");
  EXPECT_EQ(k.verdict, verdict::Verdict::pass) << k.reason;
  EXPECT_NE(k.judgement->band_scope.find("host fasthost0001's stored level is 100.1 % better than "
                                         "the fleet centre, beyond the widest of the baseline's 3 "
                                         "hosts"),
            std::string::npos)
      << k.judgement->band_scope;
  EXPECT_EQ(c.exit_code, ExitCode::pass);
  EXPECT_NE(c.change_line().find("whose stored level lay further from the fleet than any host"),
            std::string::npos)
      << c.change_line();
  std::size_t set_aside_in_json = 0;
  const nlohmann::json as_json = verdict::comparison_to_json(c);
  for (const nlohmann::json& key : as_json.at("keys"))
    set_aside_in_json += key.at("judgement").value("stored_level_set_aside", false);
  EXPECT_EQ(set_aside_in_json, 1u);  // the large key; the small one sits inside the fleet's hosts

  // Three real launches after the planted rows: the planted ones are no level a DRIFT could have
  // come from either; they are left out of its series, and the run says so.
  const RunHistory planted_then_real = history_of(
      "fasthost0001", {0.5, 0.5, 0.5, 0.5, 1.0, 1.0, 1.0}, std::vector<std::string>(7, "PASS"));
  const verdict::Comparison later = judge(run_of("now", launch(92, 1.0), "fasthost0001"), b,
                                          verdict::GateMode::change, &planted_then_real);
  EXPECT_EQ(large_key(later).verdict, verdict::Verdict::pass) << large_key(later).reason;
  EXPECT_EQ(later.exit_code, ExitCode::pass);
  EXPECT_TRUE(std::any_of(later.warnings.begin(), later.warnings.end(), [](const std::string& w) {
    return w.starts_with(
        "4 stored launch(es) of this host in sqlite:test lie further from the "
        "fleet than any host of the baseline: left out of the DRIFT series");
  })) << (later.warnings.empty() ? std::string("no warning") : later.warnings.front());

  // 1 % off the centre, inside the fleet's hosts: its own level, and a 10 % loss fails.
  const RunHistory near =
      history_of("nearhost0001", {1.01, 1.01, 1.01, 1.01}, {"PASS", "PASS", "PASS", "PASS"});
  const verdict::Comparison own = judge(run_of("now", launch(91, 1.01 / 0.9), "nearhost0001"), b,
                                        verdict::GateMode::change, &near);
  EXPECT_FALSE(large_key(own).judgement->stored_level_set_aside);
  EXPECT_EQ(large_key(own).judgement->reference, "host-history");
  EXPECT_EQ(large_key(own).verdict, verdict::Verdict::regression) << large_key(own).reason;
}

// The paired check decides a changed setup's RUNNER-DIFFERS keys (paired_check.hpp): B worse is
// the change's REGRESSION (exit 1), within the tolerance PASS (exit 0), not decided stays
// RUNNER-DIFFERS (exit 3, never a pass); the file `run` writes is what compare reads back.
TEST(gate_TwoQuestions, APairedCheckDecidesAChangedSetupsRunnerDiffersKeys) {
  const Baseline b = fleet_baseline();
  RunSpec changed;
  changed.versions = {{"driver", ""}, {"nccl", "2.29.7"}, {"mpi", "Open MPI 4.1.6"}};
  const RunRecord run = run_of("now", launch(85, 1 / 0.75), "newhost00001", changed);
  const std::string large = large_key(judge(run, b, verdict::GateMode::change)).key;
  const auto judged_with = [&](const std::string& verdict) {
    PairedCheck p;
    p.directory = "results/cpu-test-2c/now/paired";
    p.a_items = {"unset=OMPI_MCA_btl"};
    p.b_items = {"OMPI_MCA_btl=tcp,self"};
    p.pairs = 4;
    p.keys[large] = {verdict, 0.70, 0.78, 0.05, 4};
    JudgeOptions o;
    o.compare.gate = verdict::GateMode::change;
    o.confirm.launches = 0;
    std::size_t asked = 0;
    o.paired_check = [&, p](verdict::Comparison&, const RunRecord&) {
      ++asked;
      return std::optional<PairedCheck>(p);
    };
    verdict::Comparison c = judge_run(run, &b, {}, nullptr, o);
    EXPECT_EQ(asked, 1u);
    return c;
  };
  const verdict::Comparison worse = judged_with("FAIL");
  EXPECT_EQ(large_key(worse).verdict, verdict::Verdict::regression) << large_key(worse).reason;
  EXPECT_EQ(large_key(worse).reason.rfind("the change made this runner slower: paired check on "
                                          "this runner, A unset=OMPI_MCA_btl",
                                          0),
            0u)
      << large_key(worse).reason;
  EXPECT_EQ(worse.exit_code, ExitCode::gate_failure);
  EXPECT_NE(worse.change_line().find("paired check on this runner (4 pair(s), "
                                     "results/cpu-test-2c/now/paired): 1 key(s) worse"),
            std::string::npos)
      << worse.change_line();
  EXPECT_EQ(verdict::comparison_to_json(worse).at("change").at("paired_check").at("worse"), 1);
  const verdict::Comparison within = judged_with("PASS");
  EXPECT_EQ(large_key(within).verdict, verdict::Verdict::pass) << large_key(within).reason;
  EXPECT_EQ(within.exit_code, ExitCode::pass);
  const verdict::Comparison open = judged_with("UNDECIDED");
  EXPECT_EQ(large_key(open).verdict, verdict::Verdict::runner_differs) << large_key(open).reason;
  EXPECT_NE(large_key(open).reason.find("; not decided by the paired check"), std::string::npos);
  EXPECT_EQ(open.exit_code, ExitCode::infra_failure);

  // The file round-trips; a file that lacks a field is an input error naming it.
  PairedCheck p;
  p.directory = "d";
  p.pairs = 3;
  p.keys["k"] = {"FAIL", 0.5, 0.6, 0.05, 3};
  const PairedCheck back = paired_check_from_json(paired_check_to_json(p), "x.json");
  EXPECT_EQ(back.keys.at("k").verdict, "FAIL");
  EXPECT_EQ(back.pairs, 3);
  nlohmann::json broken = paired_check_to_json(p);
  broken.erase("keys");
  EXPECT_THROW(paired_check_from_json(broken, "x.json"), InputError);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
