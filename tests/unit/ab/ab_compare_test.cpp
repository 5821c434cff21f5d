// compare_ab on synthetic pairs: clear regressions FAIL, A/A and small shifts PASS, noise with few
// samples stays UNDECIDED (exit 3, never a pass), latency keys are judged on time, broken or lost
// keys fail, routes and side changes are listed, tolerances follow the policy (and A's spread) or
// --tolerance.
#include <gtest/gtest.h>

#include "harness/ab/ab_compare.hpp"
#include "harness/ab/ab_json.hpp"
#include "harness/report/ab_report.hpp"
#include "tests/unit/ab/ab_fixtures.hpp"

namespace fabricgate::testing {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using ab::AbVerdict;

constexpr std::uint64_t kMiB = 1 << 20;

ResultSpec spec(std::uint64_t bytes, std::vector<double> times) {
  ResultSpec s;
  s.bytes = bytes;
  s.time_us = std::move(times);
  return s;
}

// `pairs` pairs of 5 repetitions each; B's times are A's times x `slowdown` (plus its own noise).
std::vector<ab::AbPair> pairs_with(std::uint64_t bytes, double a_time, double slowdown,
                                   double noise, int pairs) {
  std::vector<ab::AbPair> out;
  for (int p = 1; p <= pairs; ++p) {
    const auto a = make_result(spec(bytes, noisy(a_time, noise, 5, 100 + p)));
    const auto b = make_result(spec(bytes, noisy(a_time * slowdown, noise, 5, 200 + p)));
    out.push_back(ab_pair(p, {a}, {b}));
  }
  return out;
}

ab::AbOptions options() {
  ab::AbOptions o;
  o.pairs_requested = 5;
  return o;
}

TEST(AbCompare, ClearBandwidthRegressionFails) {
  const auto c =
      compare_ab(ab_side("a"), ab_side("b"), pairs_with(kMiB, 100, 1.4, 0.02, 5), options());
  ASSERT_EQ(c.keys.size(), 1u);
  const ab::AbKey& k = c.keys.front();
  EXPECT_EQ(k.verdict, AbVerdict::fail) << k.reason;
  EXPECT_EQ(k.metric, verdict::Metric::busbw_GBps);
  EXPECT_EQ(k.samples_a, 25u);
  EXPECT_EQ(k.samples_b, 25u);
  ASSERT_TRUE(k.ratio.bounded);
  EXPECT_NEAR(k.ratio.estimate, 1 / 1.4, 0.03);
  EXPECT_LT(k.ratio.high, 1 - k.tolerance);
  EXPECT_DOUBLE_EQ(k.static_tolerance, 0.08);  // the default policy's medium class
  EXPECT_EQ(k.pair_ratios.size(), 5u);
  EXPECT_EQ(c.exit_code, ExitCode::gate_failure);
  EXPECT_NE(c.headline().find("FAIL"), std::string::npos);
}

TEST(AbCompare, SameConfigurationPasses) {
  const auto c =
      compare_ab(ab_side("a"), ab_side("a"), pairs_with(kMiB, 100, 1.0, 0.02, 5), options());
  ASSERT_EQ(c.keys.size(), 1u);
  EXPECT_EQ(c.keys.front().verdict, AbVerdict::pass) << c.keys.front().reason;
  EXPECT_EQ(c.exit_code, ExitCode::pass);
  ASSERT_FALSE(c.warnings.empty());
  EXPECT_NE(c.warnings.front().find("A/A"), std::string::npos);
}

TEST(AbCompare, ShiftWithinToleranceIsNotAFailure) {
  // 3 % slower: the interval may well exclude 1, but not 1 - 8 %.
  const auto c =
      compare_ab(ab_side("a"), ab_side("b"), pairs_with(kMiB, 100, 1.03, 0.01, 5), options());
  EXPECT_EQ(c.keys.front().verdict, AbVerdict::pass) << c.keys.front().reason;
}

TEST(AbCompare, NoisyFewSamplesStayUndecidedNotAPass) {
  // One pair of three: no 95 % interval exists (P(U=0) = 1/20 > 2.5 %), the estimate is 15 % worse.
  const auto a = make_result(spec(kMiB, {100, 130, 70}));
  const auto b = make_result(spec(kMiB, {117, 150, 82}));
  auto o = options();
  o.pairs_requested = 1;
  o.tolerance = 0.08;  // A's own spread (30 %) would otherwise widen the tolerance past the shift
  const auto c = compare_ab(ab_side("a"), ab_side("b"), {ab_pair(1, {a}, {b})}, o);
  const ab::AbKey& k = c.keys.front();
  EXPECT_EQ(k.verdict, AbVerdict::undecided) << k.reason;
  EXPECT_FALSE(k.ratio.bounded);
  EXPECT_NE(k.reason.find("too few"), std::string::npos) << k.reason;
  EXPECT_EQ(c.exit_code, ExitCode::infra_failure);  // 3: not decided
  EXPECT_NE(c.headline().find("UNDECIDED"), std::string::npos) << c.headline();
}

TEST(AbCompare, LatencySizesAreJudgedOnTime) {
  const auto c = compare_ab(ab_side("a"), ab_side("b"), pairs_with(8, 3, 2.0, 0.03, 5), options());
  const ab::AbKey& k = c.keys.front();
  EXPECT_EQ(k.metric, verdict::Metric::time_us);
  EXPECT_NEAR(k.ratio.estimate, 2.0, 0.15);        // B takes twice as long
  EXPECT_NEAR(k.performance.estimate, 0.5, 0.05);  // half the performance
  EXPECT_LT(k.performance.high, 1 - k.tolerance);
  EXPECT_EQ(k.verdict, AbVerdict::fail) << k.reason;
  EXPECT_DOUBLE_EQ(k.static_tolerance, 0.35);
}

TEST(AbCompare, ImprovementIsReportedNotFailed) {
  const auto c =
      compare_ab(ab_side("a"), ab_side("b"), pairs_with(kMiB, 100, 0.6, 0.02, 5), options());
  EXPECT_EQ(c.keys.front().verdict, AbVerdict::improvement) << c.keys.front().reason;
  EXPECT_EQ(c.exit_code, ExitCode::pass);
}

TEST(AbCompare, WrongResultsOnEitherSideAreInvalid) {
  auto pairs = pairs_with(kMiB, 100, 1.0, 0.02, 3);
  ResultSpec wrong = spec(kMiB, {});
  wrong.status = "wrong";
  pairs[1] = ab_pair(2, {make_result(spec(kMiB, {100, 101, 99}))}, {make_result(wrong)});
  const auto c = compare_ab(ab_side("a"), ab_side("b"), pairs, options());
  EXPECT_EQ(c.keys.front().verdict, AbVerdict::invalid);
  EXPECT_NE(c.keys.front().reason.find("b-2"), std::string::npos) << c.keys.front().reason;
  EXPECT_EQ(c.exit_code, ExitCode::gate_failure);
}

TEST(AbCompare, KeyLostByBFailsKeyGainedByBDoesNot) {
  ResultSpec lost = spec(kMiB, {});
  lost.status = "skipped";
  lost.op = "all_gather";
  ResultSpec lost_in_a = spec(kMiB, {100, 100, 100});
  lost_in_a.op = "all_gather";
  ResultSpec gained = spec(kMiB, {100, 100, 100});
  gained.op = "broadcast";
  std::vector<ab::AbPair> pairs;
  for (int p = 1; p <= 2; ++p) {
    auto skipped = make_result(lost);
    skipped["message"] = "fp8 not in this NCCL";
    pairs.push_back(ab_pair(p, {make_result(lost_in_a)}, {skipped, make_result(gained)}));
  }
  const auto c = compare_ab(ab_side("a"), ab_side("b"), pairs, options());
  ASSERT_EQ(c.keys.size(), 2u);
  EXPECT_EQ(c.keys[0].verdict, AbVerdict::only_a);  // failing first
  EXPECT_NE(c.keys[0].reason.find("fp8 not in this NCCL"), std::string::npos) << c.keys[0].reason;
  EXPECT_EQ(c.keys[1].verdict, AbVerdict::only_b);
  EXPECT_EQ(c.failing_count(), 1u);
}

TEST(AbCompare, RouteDifferencesAreListedPerKey) {
  ResultSpec a = spec(kMiB, {100, 101, 99, 100, 102});
  a.choice = {{"algo", {{"Ring", 10}}}, {"proto", {{"Simple", 10}}}, {"channels", {{"24", 10}}}};
  a.params = {{"provider", "shm"}};
  ResultSpec b = a;
  b.choice = {{"algo", {{"Tree", 10}}}, {"proto", {{"Simple", 10}}}, {"channels", {{"16", 10}}}};
  b.params = {{"provider", "tcp;ofi_rxm"}};
  // Two pairs: one pair alone cannot bound launch-to-launch drift (UNDECIDED).
  const auto c = compare_ab(ab_side("a"), ab_side("b"),
                            {ab_pair(1, {make_result(a)}, {make_result(b)}),
                             ab_pair(2, {make_result(a)}, {make_result(b)})},
                            options());
  const auto& changes = c.keys.front().route_changes;
  std::set<std::string> what;
  for (const auto& ch : changes) what.insert(ch.what);
  EXPECT_EQ(what, (std::set<std::string>{"provider", "algo", "channels"}));
  EXPECT_EQ(c.keys.front().verdict,
            AbVerdict::pass);  // a route change alone is information, not a failure
  EXPECT_NE(c.keys.front().reason.find("algo {Ring} -> {Tree}"), std::string::npos)
      << c.keys.front().reason;
}

TEST(AbCompare, WhatChangedBetweenTheSidesIsListed) {
  const auto a = make_result(spec(kMiB, {100, 101, 99}));
  const auto pair = ab_pair(1, {a}, {a}, libs("2.28.3", "/usr/lib/libnccl.so.2.28.3"),
                            libs("2.28.9", "/pip/nvidia/nccl/lib/libnccl.so.2"));
  const auto c =
      compare_ab(ab_side("a"), ab_side("b", {{"NCCL_ALGO", "Ring"}, {"MY_TOKEN", "s3cret"}}),
                 {pair}, options());
  std::map<std::string, verdict::Change> by_what;
  for (const auto& ch : c.side_changes) by_what[ch.what] = ch;
  ASSERT_TRUE(by_what.count("NCCL version"));
  EXPECT_EQ(by_what["NCCL version"].before, "2.28.3");
  EXPECT_EQ(by_what["NCCL version"].after, "2.28.9");
  ASSERT_TRUE(by_what.count("NCCL library"));
  EXPECT_EQ(by_what["NCCL library"].after, "/pip/nvidia/nccl/lib/libnccl.so.2");
  ASSERT_TRUE(by_what.count("NCCL_ALGO"));
  EXPECT_EQ(by_what["NCCL_ALGO"].before, "(not set by the spec)");
  EXPECT_EQ(by_what["MY_TOKEN"].after, "<redacted>");  // reports are published
  EXPECT_FALSE(by_what.count("MPI"));
}

TEST(AbCompare, ToleranceFromOptionOrWidenedByTheSpreadOfA) {
  // A's pair medians drift 80..120: 3 x spread exceeds the 8 % class tolerance.
  std::vector<ab::AbPair> pairs;
  const double drift[] = {100, 120, 80};
  for (int p = 1; p <= 3; ++p) {
    const auto r = make_result(spec(kMiB, noisy(drift[p - 1], 0.01, 5, static_cast<unsigned>(p))));
    pairs.push_back(ab_pair(p, {r}, {r}));
  }
  const auto widened = compare_ab(ab_side("a"), ab_side("b"), pairs, options());
  EXPECT_GT(widened.keys.front().spread_a, 0.15);
  EXPECT_DOUBLE_EQ(widened.keys.front().tolerance, 0.5);  // capped at the policy's max_tolerance
  auto o = options();
  o.tolerance = 0.1;
  const auto fixed = compare_ab(ab_side("a"), ab_side("b"), pairs, o);
  EXPECT_DOUBLE_EQ(fixed.keys.front().tolerance, 0.1);
}

TEST(AbCompare, TheIntervalCoversTheLaunchToLaunchDrift) {
  // Each launch is tight (0.5 %) but B's launches sit 12 % below or 8 % above A's in turn: pooled,
  // the repetitions look like a clear -2 % with a narrow interval; the pairs say the shift is
  // not known to better than the drift, so the key is not decided (and not a FAIL, not a PASS).
  std::vector<ab::AbPair> pairs;
  const double b_level[] = {0.88, 1.08, 0.9, 1.07};
  for (int p = 1; p <= 4; ++p) {
    const auto a = make_result(spec(kMiB, noisy(100, 0.005, 5, 700 + p)));
    const auto b = make_result(spec(kMiB, noisy(100 / b_level[p - 1], 0.005, 5, 800 + p)));
    pairs.push_back(ab_pair(p, {a}, {b}));
  }
  auto o = options();
  o.tolerance = 0.08;
  const auto c = compare_ab(ab_side("a"), ab_side("b"), pairs, o);
  const ab::AbKey& k = c.keys.front();
  ASSERT_TRUE(k.pooled_ratio.bounded && k.paired_ratio.bounded);
  EXPECT_GT(k.paired_ratio.high - k.paired_ratio.low, k.pooled_ratio.high - k.pooled_ratio.low);
  EXPECT_LE(k.ratio.low, k.paired_ratio.low);
  EXPECT_GE(k.ratio.high, k.paired_ratio.high);
  EXPECT_EQ(k.verdict, AbVerdict::undecided) << k.reason;
}

TEST(AbCompare, IncompleteWithoutFailureExits3WithFailureExits1) {
  auto o = options();
  o.incomplete_reason = "launch b-4 did not finish";
  const auto ok = compare_ab(ab_side("a"), ab_side("b"), pairs_with(kMiB, 100, 1.0, 0.01, 3), o);
  ASSERT_EQ(ok.keys.front().verdict, AbVerdict::pass) << ok.keys.front().reason;
  EXPECT_EQ(ok.exit_code, ExitCode::infra_failure);
  EXPECT_NE(ok.headline().find("INCOMPLETE"), std::string::npos);
  const auto bad = compare_ab(ab_side("a"), ab_side("b"), pairs_with(kMiB, 100, 2.0, 0.01, 2), o);
  EXPECT_EQ(bad.exit_code, ExitCode::gate_failure);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::testing

namespace fabricgate::testing {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

// What changed between the sides' fingerprints: named field by field in ab.json and ab.md; a
// side without fingerprint detail is said, not guessed.
TEST(AbCompare, TheSidesFingerprintDifferenceIsListed) {
  std::vector<ab::AbPair> pairs = pairs_with(kMiB, 100, 1.0, 0.02, 5);
  for (ab::AbPair& p : pairs) {
    p.a.run.fingerprint.detail = {
        {"nccl", "2.28.3"}, {"nccl_path", "/opt/a/libnccl.so.2"}, {"env/NCCL_PROTO", "Simple"}};
    p.b.run.fingerprint.detail = {
        {"nccl", "2.28.9"}, {"nccl_path", "/opt/b/libnccl.so.2"}, {"env/NCCL_PROTO", "Simple"}};
  }
  const ab::AbComparison c = compare_ab(ab_side("a"), ab_side("b"), pairs, options());
  ASSERT_EQ(c.fingerprint_changes.size(), 2u);
  EXPECT_EQ(c.fingerprint_changes[0].what, "nccl");
  EXPECT_EQ(c.fingerprint_changes[1].after, "/opt/b/libnccl.so.2");
  EXPECT_EQ(ab::ab_to_json(c)["fingerprint_diff"][0],
            json({{"field", "nccl"}, {"before", "2.28.3"}, {"after", "2.28.9"}}));
  EXPECT_NE(
      report::render_ab_markdown(c).find(
          "### Fingerprint difference (A → B)\n\n| field | A | B |\n|---|---|---|\n"
          "| nccl | 2\\.28.3 | 2\\.28.9 |\n"),  // "2." escaped: it starts a list at a line start
      std::string::npos);
  EXPECT_NE(report::render_ab_console(c, false).find(
                "WHAT CHANGED (2 fingerprint fields, A -> B):\n  nccl: 2.28.3 -> 2.28.9\n"),
            std::string::npos);

  for (ab::AbPair& p : pairs) p.b.run.fingerprint.detail.clear();
  const ab::AbComparison none = compare_ab(ab_side("a"), ab_side("b"), pairs, options());
  EXPECT_TRUE(none.fingerprint_changes.empty());
  EXPECT_EQ(none.fingerprint_note, "side B's run has no fingerprint detail");
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::testing
