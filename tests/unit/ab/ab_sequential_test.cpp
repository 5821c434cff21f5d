// judge_sequential: pairs are added until each key is decided. A clear regression fails at the
// first look; an A/A passes once its interval lies inside the tolerance; a wide interval that
// reaches below 1 - tolerance is never a pass (UNDECIDED, exit 3 after the maximum); verdicts
// stay as decided, with the pairs they needed; two-level sides are BIMODAL / TWO-STATES; and the
// alpha split keeps the per-key false-alarm rate of simulated A/As at the policy's level.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "harness/ab/ab_sequential.hpp"
#include "harness/stats/binomial_bound.hpp"
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

// `pairs` pairs of 5 repetitions; each launch has its own level (launch-to-launch drift
// `drift`, lognormal) and `noise` between repetitions; B is `slowdown` x slower in time.
// `b_level(p)` multiplies B's level in pair p (two states).
std::vector<ab::AbPair> series(double slowdown, double noise, double drift, int pairs,
                               unsigned seed, double (*b_level)(int) = nullptr) {
  std::mt19937_64 g(seed);
  std::normal_distribution<double> d(0, drift);
  std::vector<ab::AbPair> out;
  for (int p = 1; p <= pairs; ++p) {
    const double la = 100 * std::exp(d(g));
    const double lb = 100 * slowdown * std::exp(d(g)) * (b_level ? b_level(p) : 1.0);
    const auto a = make_result(spec(kMiB, noisy(la, noise, 5, seed * 1000 + 2 * p)));
    const auto b = make_result(spec(kMiB, noisy(lb, noise, 5, seed * 1000 + 2 * p + 1)));
    out.push_back(ab_pair(p, {a}, {b}));
  }
  return out;
}

ab::AbOptions options(double tolerance = 0.08) {
  ab::AbOptions o;
  o.tolerance = tolerance;
  return o;
}

const ab::AbSchedule kSchedule{3, 12};

TEST(AbSequential, TheAlphaIsSplitOverThePlannedLooks) {
  EXPECT_EQ(kSchedule.looks(), 10);
  EXPECT_NEAR(ab::look_confidence(kSchedule, 0.95), 0.995, 1e-12);
  EXPECT_NEAR(ab::look_confidence({5, 5}, 0.95), 0.95, 1e-12);  // fixed design: one look
  EXPECT_THROW(ab::check_schedule({4, 3}), InputError);
  EXPECT_THROW(ab::check_schedule({0, 3}), InputError);
}

TEST(AbSequential, ClearRegressionFailsAtTheFirstLook) {
  const auto pairs = series(1.5, 0.01, 0.01, 3, 7);
  const auto c = ab::judge_sequential(ab_side("a"), ab_side("b"), pairs, options(), kSchedule);
  ASSERT_EQ(c.keys.size(), 1u);
  EXPECT_EQ(c.keys.front().verdict, AbVerdict::fail) << c.keys.front().reason;
  EXPECT_EQ(c.keys.front().pairs_needed, 3);
  EXPECT_TRUE(c.decided);
  EXPECT_EQ(c.exit_code, ExitCode::gate_failure);
  EXPECT_NE(c.stop_reason.find("every key decided after 3 pairs"), std::string::npos)
      << c.stop_reason;
}

TEST(AbSequential, AnAAPassesOnlyOnceItsIntervalIsInsideTheTolerance) {
  const auto pairs = series(1.0, 0.01, 0.01, 12, 11);
  // Before the first look nothing is decided.
  const auto early = ab::judge_sequential(ab_side("a"), ab_side("a"),
                                          {pairs.begin(), pairs.begin() + 2}, options(), kSchedule);
  EXPECT_FALSE(early.decided);
  EXPECT_EQ(early.keys.front().verdict, AbVerdict::undecided);
  EXPECT_NE(early.keys.front().stop_reason.find("collecting"), std::string::npos);
  // Whenever it is decided, it is a PASS with its pairs and the interval inside the tolerance.
  for (std::size_t n = 3; n <= pairs.size(); ++n) {
    const auto c = ab::judge_sequential(ab_side("a"), ab_side("a"),
                                        {pairs.begin(), pairs.begin() + n}, options(), kSchedule);
    if (!c.decided) continue;
    const ab::AbKey& k = c.keys.front();
    EXPECT_EQ(k.verdict, AbVerdict::pass) << k.reason;
    EXPECT_GE(k.performance.low, 1 - k.tolerance);
    EXPECT_LE(k.pairs_needed, static_cast<int>(n));
    EXPECT_EQ(c.exit_code, ExitCode::pass);
    return;
  }
  FAIL() << "a quiet A/A was not decided within 12 pairs";
}

TEST(AbSequential, AWideIntervalIsNeverAPassAndStaysUndecidedAtTheMaximum) {
  // The all_reduce 64 KiB: B/A 1.60 with an interval reaching from 0.92 to 4.9. Here B
  // is 1.6 x slower with huge launch-to-launch noise and a 35 % tolerance: at no look is the
  // interval wholly above 1 - tolerance.
  const auto pairs = series(1.6, 0.05, 0.9, 4, 3);
  const auto c = ab::judge_sequential(ab_side("a"), ab_side("b"), pairs, options(0.35), {4, 4});
  const ab::AbKey& k = c.keys.front();
  EXPECT_NE(k.verdict, AbVerdict::pass) << k.reason;
  if (k.verdict == AbVerdict::undecided) {
    EXPECT_LT(k.performance.low, 1 - k.tolerance);
    EXPECT_EQ(c.exit_code, ExitCode::infra_failure);
    EXPECT_NE(c.headline().find("UNDECIDED"), std::string::npos) << c.headline();
    EXPECT_NE(k.stop_reason.find("maximum of 4 pairs"), std::string::npos) << k.stop_reason;
  }
}

TEST(AbSequential, AKeyTheRunnersNoiseMakesUndecidableIsSaidEarlyNotGated) {
  // Two keys, A = B: 1 MiB whose launches wander 40 % (no 12 pairs can bring its interval inside
  // an 8 % tolerance) and 2 MiB whose launches agree. The noisy key is NOISY from the first look
  // that judges the pairs' spread (4), with the pairs it would need; the quiet one passes; the
  // series stops once both are settled, and the A/A passes on what it could judge (exit 0).
  std::mt19937_64 g(9);
  std::normal_distribution<double> drift(0, 0.4);
  std::vector<ab::AbPair> pairs;
  for (int p = 1; p <= 12; ++p) {
    const auto a1 = make_result(spec(kMiB, noisy(100 * std::exp(drift(g)), 0.01, 5, 900 + 4 * p)));
    const auto b1 = make_result(spec(kMiB, noisy(100 * std::exp(drift(g)), 0.01, 5, 901 + 4 * p)));
    const auto a2 = make_result(spec(2 * kMiB, noisy(200, 0.01, 5, 902 + 4 * p)));
    const auto b2 = make_result(spec(2 * kMiB, noisy(200, 0.01, 5, 903 + 4 * p)));
    pairs.push_back(ab_pair(p, {a1, a2}, {b1, b2}));
  }
  const auto c = ab::judge_sequential(ab_side("a"), ab_side("a"), pairs, options(), kSchedule);
  ASSERT_EQ(c.keys.size(), 2u);
  const ab::AbKey* noisy_key = nullptr;
  const ab::AbKey* quiet = nullptr;
  for (const ab::AbKey& k : c.keys) (k.bytes == kMiB ? noisy_key : quiet) = &k;
  ASSERT_TRUE(noisy_key && quiet);
  EXPECT_EQ(noisy_key->verdict, AbVerdict::noisy) << noisy_key->reason;
  EXPECT_EQ(noisy_key->pairs_needed, 4) << noisy_key->stop_reason;
  EXPECT_NE(noisy_key->stop_reason.find("pairs would decide it, more than the maximum of 12"),
            std::string::npos)
      << noisy_key->stop_reason;
  EXPECT_EQ(quiet->verdict, AbVerdict::pass) << quiet->reason;
  EXPECT_TRUE(c.decided);
  EXPECT_EQ(c.exit_code, ExitCode::pass);
  // The same noise under a clear regression still fails: NOISY is said only where the interval
  // can neither clear nor miss the tolerance.
  const auto slow = series(3.0, 0.01, 0.4, 12, 9);
  const auto f = ab::judge_sequential(ab_side("a"), ab_side("b"), slow, options(), kSchedule);
  EXPECT_EQ(f.keys.front().verdict, AbVerdict::fail) << f.keys.front().reason;
}

TEST(AbSequential, ADecidedVerdictIsNotReopenedByLaterPairs) {
  // Decided FAIL at pair 3; later pairs where B recovers do not turn it into a pass.
  auto pairs = series(1.5, 0.01, 0.01, 3, 5);
  const auto more = series(1.0, 0.01, 0.01, 3, 6);
  for (ab::AbPair p : more) {
    p.index = static_cast<int>(pairs.size()) + 1;
    pairs.push_back(p);
  }
  const auto c = ab::judge_sequential(ab_side("a"), ab_side("b"), pairs, options(), kSchedule);
  EXPECT_EQ(c.keys.front().verdict, AbVerdict::fail);
  EXPECT_EQ(c.keys.front().pairs_needed, 3);
}

double every_other_slow(int p) { return p % 2 == 0 ? 1.4 : 1.0; }
double every_other_fast(int p) { return p % 2 == 0 ? 1 / 1.4 : 1.0; }

TEST(AbSequential, AStateBothSidesShareIsNotBsFault) {
  // A and B both slow in every fourth launch (a runner's occasional slow process): B is not
  // worse than A in any state, so it is not BIMODAL; but not a pass either: NOISY, the runner's
  // own states, not gated; and a comparison that gated no key at all is not decided (exit 3).
  auto shared = [](int p) { return p % 4 == 0 ? 2.0 : 1.0; };
  std::vector<ab::AbPair> pairs;
  for (int p = 1; p <= 12; ++p) {
    const auto a = make_result(spec(kMiB, noisy(100 * shared(p + 2), 0.003, 5, 500 + p)));
    const auto b = make_result(spec(kMiB, noisy(100 * shared(p), 0.003, 5, 600 + p)));
    pairs.push_back(ab_pair(p, {a}, {b}));
  }
  const auto c = ab::judge_sequential(ab_side("a"), ab_side("a"), pairs, options(), {12, 12});
  const ab::AbKey& k = c.keys.front();
  EXPECT_TRUE(k.levels_a.found && k.levels_b.found) << k.reason;
  EXPECT_EQ(k.verdict, AbVerdict::noisy) << k.reason;
  EXPECT_NE(k.reason.find("the runner's own two states"), std::string::npos) << k.reason;
  EXPECT_EQ(c.exit_code, ExitCode::infra_failure);
}

TEST(AbSequential, ASideOnTwoLevelsIsNeverAveragedIntoAPass) {
  // B is slow in every other launch: BIMODAL, failing, with both levels and their counts.
  const auto slow = series(1.0, 0.005, 0.005, 8, 21, every_other_slow);
  const auto c = ab::judge_sequential(ab_side("a"), ab_side("b"), slow, options(), {8, 8});
  const ab::AbKey& k = c.keys.front();
  EXPECT_EQ(k.verdict, AbVerdict::bimodal) << k.reason;
  EXPECT_TRUE(k.levels_b.found);
  EXPECT_FALSE(k.levels_a.found);
  EXPECT_EQ(k.levels_b.low_count, 4u);
  EXPECT_EQ(k.levels_b.high_count, 4u);
  EXPECT_NEAR(k.levels_b.high / k.levels_b.low, 1.4, 0.05);
  EXPECT_EQ(c.exit_code, ExitCode::gate_failure);
  // B is fast in every other launch, never worse than A: its worse state is A's only one, so
  // NOISY (not gated), never a pass; the only key: not decided (exit 3).
  const auto fast = series(1.0, 0.005, 0.005, 8, 22, every_other_fast);
  const auto f = ab::judge_sequential(ab_side("a"), ab_side("b"), fast, options(), {8, 8});
  EXPECT_EQ(f.keys.front().verdict, AbVerdict::noisy) << f.keys.front().reason;
  EXPECT_EQ(f.exit_code, ExitCode::infra_failure);
}

TEST(AbSequential, APassDecidedEarlyGivesWayToTwoStatesSeenLater) {
  // B's first launches agree with A; from pair 5 on every other one is 1.5 x slower.
  auto level = [](int p) { return p >= 5 && p % 2 == 1 ? 1.5 : 1.0; };
  std::vector<ab::AbPair> pairs;
  for (int p = 1; p <= 10; ++p) {
    const auto a = make_result(spec(kMiB, noisy(100, 0.003, 5, 300 + p)));
    const auto b = make_result(spec(kMiB, noisy(100 * level(p), 0.003, 5, 400 + p)));
    pairs.push_back(ab_pair(p, {a}, {b}));
  }
  const auto at3 = ab::judge_sequential(ab_side("a"), ab_side("b"),
                                        {pairs.begin(), pairs.begin() + 3}, options(), kSchedule);
  ASSERT_EQ(at3.keys.front().verdict, AbVerdict::pass) << at3.keys.front().reason;
  const auto c = ab::judge_sequential(ab_side("a"), ab_side("b"), pairs, options(), kSchedule);
  // 3 of 10 launches slow against none of A's: two states, not (yet) significantly B's fault.
  EXPECT_EQ(c.keys.front().verdict, AbVerdict::two_states) << c.keys.front().reason;
  EXPECT_NE(c.keys.front().stop_reason.find("was PASS"), std::string::npos)
      << c.keys.front().stop_reason;
  EXPECT_EQ(c.exit_code, ExitCode::infra_failure);
}

TEST(AbSequential, SimulatedAAsFailAKeyAtMostAtThePolicysRate) {
  // 300 A/As of one key, each with its own launch-to-launch drift, run the full schedule (a
  // series stops at the first decision): false FAILs stay within alpha = 5 % per key, and so
  // does their 95 % upper bound's order of magnitude.
  std::size_t fails = 0;
  std::size_t decided = 0;
  const int trials = 300;
  for (int t = 0; t < trials; ++t) {
    const auto pairs = series(1.0, 0.02, 0.03, 12, 5000 + static_cast<unsigned>(t));
    for (int n = kSchedule.min_pairs; n <= kSchedule.max_pairs; ++n) {
      const auto c = ab::judge_sequential(
          ab_side("a"), ab_side("a"), {pairs.begin(), pairs.begin() + n}, options(0.05), kSchedule);
      if (!c.decided && n < kSchedule.max_pairs) continue;
      fails += c.failing_count();
      decided += c.decided ? 1 : 0;
      break;
    }
  }
  std::printf("simulated A/As: %zu false FAIL(s) of %d, %zu decided\n", fails, trials, decided);
  EXPECT_LE(fails, static_cast<std::size_t>(0.05 * trials)) << fails << " of " << trials;
  EXPECT_LT(stats::binomial_upper_bound(fails, trials, 0.95), 0.08);
  EXPECT_GT(decided, static_cast<std::size_t>(trials / 2));  // most A/As do reach a decision
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::testing
