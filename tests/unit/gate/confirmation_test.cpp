// Confirm before fail: real runs and a real baseline through compare_run; the launcher is a test
// function that returns a real RunRecord (and records which keys it was asked for).
#include "harness/gate/confirmation.hpp"

#include <gtest/gtest.h>

#include "harness/baseline/baseline_builder.hpp"
#include "tests/unit/gate/gate_fixtures.hpp"

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using testing::json;
using testing::ResultSpec;
using testing::RunSpec;

constexpr std::uint64_t kSmall = 8 * 1024;
constexpr std::uint64_t kMedium = 1 << 20;
constexpr std::uint64_t kLarge = 64u << 20;

ResultSpec spec(std::uint64_t bytes, unsigned seed, double slowdown = 1.0) {
  ResultSpec s;
  s.bytes = bytes;
  s.time_us =
      testing::noisy((5.0 + static_cast<double>(bytes) / 2000.0) * slowdown, 0.003, 5, seed);
  return s;
}

RunRecord run_of(const std::string& id, const std::vector<ResultSpec>& specs) {
  RunSpec rs;
  rs.run_id = id;
  std::vector<json> results;
  for (const ResultSpec& s : specs) results.push_back(testing::make_result(s));
  return testing::to_run(testing::make_run(rs, results));
}

std::vector<ResultSpec> three_sizes(unsigned seed, double large_slowdown = 1.0,
                                    double medium_slowdown = 1.0) {
  return {spec(kSmall, seed), spec(kMedium, seed + 100, medium_slowdown),
          spec(kLarge, seed + 200, large_slowdown)};
}

Baseline baseline() {
  std::vector<RunRecord> runs;
  for (unsigned i = 0; i < 5; ++i)
    runs.push_back(run_of("base-" + std::to_string(i), three_sizes(i + 1)));
  baseline::BaselineBuildOptions o;
  o.now = "2026-12-01T00:00:00Z";
  // One session of synthetic launches: the one-level band these tests are about, without the
  // between-session allowance (sessions and hosts: variance_components_test.cpp).
  o.policy.session_allowance = 0;
  return baseline::create_baseline(runs, o).baseline;
}

const verdict::KeyComparison& key_of(const verdict::Comparison& c, std::uint64_t bytes) {
  for (const verdict::KeyComparison& k : c.keys) {
    if (k.bytes == bytes) return k;
  }
  throw std::runtime_error("no key of that size");
}

// Answers every confirmation launch with `answer`, or launch i with `answers[i - 1]` when set.
struct RecordingLauncher {
  std::vector<std::vector<std::string>> calls;
  std::optional<RunRecord> answer;
  std::vector<RunRecord> answers;
  ConfirmationLauncher fn() {
    return [this](const std::vector<std::string>& keys, std::size_t attempt) {
      calls.push_back(keys);
      const std::optional<RunRecord> a =
          answers.empty() ? answer : std::optional<RunRecord>(answers.at(attempt - 1));
      const std::string dir = attempt == 1 ? "results/x/confirm" : "results/x/confirm-2";
      return ConfirmationLaunch{a, a ? dir : "the bench crashed"};
    };
  }
};

TEST(gate_Confirmation, RegressionThatRepeatsFailsAndSaysBoth) {
  const Baseline b = baseline();
  RecordingLauncher l;
  l.answer = run_of("again", three_sizes(70, 1.0 / 0.9));  // busbw -10 % again
  const verdict::Comparison c =
      compare_with_confirmation(run_of("now", three_sizes(60, 1.0 / 0.9)), &b, {}, {}, l.fn());
  ASSERT_EQ(l.calls.size(), 2u);     // the confirmation and the one after the gap
  ASSERT_EQ(l.calls[0].size(), 1u);  // only the failing key is re-measured
  EXPECT_NE(l.calls[0][0].find("bytes:67108864"), std::string::npos);
  EXPECT_EQ(l.calls[1], l.calls[0]);
  const verdict::KeyComparison& k = key_of(c, kLarge);
  EXPECT_EQ(k.verdict, verdict::Verdict::regression);
  ASSERT_TRUE(k.confirmation);
  EXPECT_EQ(k.confirmation->first, verdict::Verdict::regression);
  ASSERT_EQ(k.confirmation->later.size(), 2u);
  EXPECT_EQ(k.confirmation->later[0].verdict, verdict::Verdict::regression);
  EXPECT_EQ(k.confirmation->later[1].verdict, verdict::Verdict::regression);
  EXPECT_EQ(k.confirmation->later[1].source, "results/x/confirm-2");
  EXPECT_NE(k.reason.find("confirmed: beyond the band in all 3 launches"), std::string::npos)
      << k.reason;
  EXPECT_NE(k.reason.find("Confirmation 2: REGRESSION"), std::string::npos) << k.reason;
  EXPECT_EQ(c.exit_code, ExitCode::gate_failure);
  EXPECT_EQ(c.confirmation_run, "results/x/confirm");
  EXPECT_FALSE(key_of(c, kSmall).confirmation);  // passing keys were not touched
}

TEST(gate_Confirmation, OneBadLaunchIsNotAFailure) {
  const Baseline b = baseline();
  RecordingLauncher l;
  l.answer = run_of("again", three_sizes(71));  // the fresh launch is normal
  const verdict::Comparison c =
      compare_with_confirmation(run_of("now", three_sizes(61, 1.0 / 0.9)), &b, {}, {}, l.fn());
  const verdict::KeyComparison& k = key_of(c, kLarge);
  EXPECT_EQ(k.verdict, verdict::Verdict::ambiguous) << k.reason;
  EXPECT_EQ(k.confirmation->first, verdict::Verdict::regression);
  ASSERT_EQ(k.confirmation->later.size(), 1u);  // a pass settles it: no launch after the gap
  EXPECT_EQ(k.confirmation->later[0].verdict, verdict::Verdict::pass);
  EXPECT_EQ(l.calls.size(), 1u);
  EXPECT_NE(k.reason.find("not confirmed"), std::string::npos) << k.reason;
  EXPECT_EQ(c.exit_code, ExitCode::pass);
  EXPECT_NE(c.confirmation_note.find("1 not confirmed"), std::string::npos) << c.confirmation_note;
}

// A dip that lasts the first launch and its back-to-back confirmation, over by the launch after
// the gap: fresh one-H200 machines showed exactly this (-3.4 %, confirmed -3.7 % seconds later).
TEST(gate_Confirmation, ADipThatOutlastsOneConfirmationButNotTheGapIsNotAFailure) {
  const Baseline b = baseline();
  RecordingLauncher l;
  l.answers = {run_of("again", three_sizes(75, 1.0 / 0.9)), run_of("later", three_sizes(76))};
  const verdict::Comparison c =
      compare_with_confirmation(run_of("now", three_sizes(66, 1.0 / 0.9)), &b, {}, {}, l.fn());
  ASSERT_EQ(l.calls.size(), 2u);
  const verdict::KeyComparison& k = key_of(c, kLarge);
  EXPECT_EQ(k.verdict, verdict::Verdict::ambiguous) << k.reason;
  EXPECT_NE(k.reason.find("2 of 3 judged launches beyond the band"), std::string::npos) << k.reason;
  EXPECT_EQ(c.exit_code, ExitCode::pass);
}

TEST(gate_Confirmation, NothingFailingLaunchesNothing) {
  const Baseline b = baseline();
  RecordingLauncher l;
  const verdict::Comparison c =
      compare_with_confirmation(run_of("now", three_sizes(62)), &b, {}, {}, l.fn());
  EXPECT_TRUE(l.calls.empty());
  EXPECT_EQ(c.exit_code, ExitCode::pass);
  EXPECT_TRUE(c.confirmation_note.empty());
}

TEST(gate_Confirmation, BoundedByMaxKeysTheRestKeepTheirVerdict) {
  const Baseline b = baseline();
  RecordingLauncher l;
  l.answer = run_of("again", three_sizes(72));
  ConfirmOptions one;
  one.max_keys = 1;
  const verdict::Comparison c = compare_with_confirmation(
      run_of("now", three_sizes(63, 1.0 / 0.8, 1.0 / 0.8)), &b, {}, one, l.fn());
  ASSERT_EQ(l.calls.size(), 1u);
  EXPECT_EQ(l.calls[0].size(), 1u);
  std::size_t confirmed_away = 0;
  std::size_t over_limit = 0;
  for (const std::uint64_t bytes : {kMedium, kLarge}) {
    const verdict::KeyComparison& k = key_of(c, bytes);
    ASSERT_TRUE(k.confirmation);
    if (!k.confirmation->later.empty()) {
      ++confirmed_away;
      EXPECT_EQ(k.verdict, verdict::Verdict::ambiguous);
    } else {
      ++over_limit;
      EXPECT_EQ(k.verdict, verdict::Verdict::regression);
      EXPECT_NE(k.reason.find("more than 1 keys"), std::string::npos) << k.reason;
    }
  }
  EXPECT_EQ(confirmed_away, 1u);
  EXPECT_EQ(over_limit, 1u);
  EXPECT_EQ(c.exit_code, ExitCode::gate_failure);
}

TEST(gate_Confirmation, NoConfirmationRunLeavesTheFirstVerdict) {
  const Baseline b = baseline();
  RecordingLauncher l;  // answer: none
  const verdict::Comparison c =
      compare_with_confirmation(run_of("now", three_sizes(64, 1.0 / 0.9)), &b, {}, {}, l.fn());
  const verdict::KeyComparison& k = key_of(c, kLarge);
  EXPECT_EQ(k.verdict, verdict::Verdict::regression);
  EXPECT_NE(k.reason.find("the bench crashed"), std::string::npos) << k.reason;
  EXPECT_EQ(c.exit_code, ExitCode::gate_failure);
}

TEST(gate_Confirmation, UnstableIsNeverAFailureAndNeverConfirmsOne) {
  const Baseline b = baseline();
  auto torn = three_sizes(65);
  const double t = torn[2].time_us[0];
  torn[2].time_us = {t, 1.6 * t, 0.7 * t, 1.3 * t,
                     0.9 * t};  // repetitions disagree (robust CV ~ 0.3)
  RecordingLauncher l;
  l.answer = run_of("again", torn);
  verdict::Comparison c = compare_with_confirmation(run_of("now", torn), &b, {}, {}, l.fn());
  ASSERT_EQ(l.calls.size(), 2u);  // re-measured: a judged answer is wanted
  EXPECT_EQ(key_of(c, kLarge).verdict, verdict::Verdict::unstable) << key_of(c, kLarge).reason;
  EXPECT_EQ(c.exit_code, ExitCode::pass);  // never judged: a warning

  // then one judged regression and one judged pass: not every judged launch failed
  l.answer.reset();
  l.answers = {run_of("again", three_sizes(73, 1.0 / 0.85)), run_of("later", three_sizes(77))};
  c = compare_with_confirmation(run_of("now", torn), &b, {}, {}, l.fn());
  EXPECT_EQ(key_of(c, kLarge).verdict, verdict::Verdict::ambiguous);
  EXPECT_EQ(key_of(c, kLarge).confirmation->first, verdict::Verdict::unstable);
  EXPECT_EQ(c.exit_code, ExitCode::pass);
  l.answers.clear();

  l.answer = run_of("again", three_sizes(74));  // then a judged pass
  c = compare_with_confirmation(run_of("now", torn), &b, {}, {}, l.fn());
  EXPECT_EQ(key_of(c, kLarge).verdict, verdict::Verdict::pass);
}

// A baseline whose large key moved from launch to launch far beyond max_band: NOISY.
Baseline noisy_large_baseline() {
  const double level[] = {1.0, 1.3, 0.9, 1.2, 0.95};
  std::vector<RunRecord> runs;
  for (unsigned i = 0; i < 5; ++i)
    runs.push_back(run_of("base-" + std::to_string(i), three_sizes(i + 1, level[i])));
  baseline::BaselineBuildOptions o;
  o.now = "2026-12-01T00:00:00Z";
  o.policy.session_allowance = 0;
  return baseline::create_baseline(runs, o).baseline;
}

TEST(gate_Confirmation, ANoisyKeyFailsOnlyBeyondItsOwnWideBandInEveryLaunch) {
  // Issue 53: NOISY is too wide to gate a small loss, not blind to a gross one.
  const Baseline b = noisy_large_baseline();
  RecordingLauncher l;
  verdict::Comparison c =
      compare_with_confirmation(run_of("now", three_sizes(80)), &b, {}, {}, l.fn());
  const verdict::KeyComparison& quiet = key_of(c, kLarge);
  ASSERT_TRUE(quiet.judgement);
  ASSERT_TRUE(quiet.judgement->noisy) << quiet.reason;
  EXPECT_EQ(quiet.verdict, verdict::Verdict::noisy);
  const double limit = quiet.judgement->upper_limit / quiet.judgement->baseline_median;
  ASSERT_GT(limit, 1.5);  // the wide band: time may grow by this factor and still be inside
  EXPECT_TRUE(l.calls.empty());

  // Inside the wide band: NOISY, not re-measured, not failed.
  c = compare_with_confirmation(run_of("now", three_sizes(81, 0.9 * limit)), &b, {}, {}, l.fn());
  EXPECT_EQ(key_of(c, kLarge).verdict, verdict::Verdict::noisy) << key_of(c, kLarge).reason;
  EXPECT_TRUE(l.calls.empty());
  EXPECT_EQ(c.exit_code, ExitCode::pass);

  // Beyond it in the launch and both confirmations: REGRESSION, exit 1, saying why.
  l.answer = run_of("again", three_sizes(82, 2 * limit));
  c = compare_with_confirmation(run_of("now", three_sizes(83, 2 * limit)), &b, {}, {}, l.fn());
  EXPECT_EQ(l.calls.size(), 2u);
  EXPECT_EQ(key_of(c, kLarge).verdict, verdict::Verdict::regression) << key_of(c, kLarge).reason;
  EXPECT_NE(key_of(c, kLarge).confirmation->first_reason.find("beyond even that band"),
            std::string::npos)
      << key_of(c, kLarge).confirmation->first_reason;
  EXPECT_EQ(c.exit_code, ExitCode::gate_failure);

  // Beyond it once, back inside in the confirmation: not failed.
  l.calls.clear();
  l.answer = run_of("again", three_sizes(84));
  c = compare_with_confirmation(run_of("now", three_sizes(85, 2 * limit)), &b, {}, {}, l.fn());
  EXPECT_EQ(l.calls.size(), 1u);  // a launch inside the band settles it
  EXPECT_EQ(key_of(c, kLarge).verdict, verdict::Verdict::ambiguous) << key_of(c, kLarge).reason;
  EXPECT_EQ(c.exit_code, ExitCode::pass);
}

TEST(gate_Confirmation, CorrectnessFailuresAreNotReRun) {
  EXPECT_FALSE(verdict_needs_confirmation(verdict::Verdict::wrong_results));
  EXPECT_FALSE(verdict_needs_confirmation(verdict::Verdict::transport_changed));
  EXPECT_FALSE(verdict_needs_confirmation(verdict::Verdict::invalid));
  EXPECT_FALSE(verdict_needs_confirmation(verdict::Verdict::missing));
  EXPECT_TRUE(verdict_needs_confirmation(verdict::Verdict::regression));
  EXPECT_TRUE(verdict_needs_confirmation(verdict::Verdict::unstable));
  EXPECT_TRUE(
      verdict_needs_confirmation(verdict::Verdict::dip));  // a curve's shape is measured too
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
