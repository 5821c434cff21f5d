// bisect_first_bad: the first bad candidate of an ordered ladder within ceil(log2 n) + 1 A/Bs,
// each candidate probed at most once. Exhaustively with an exact oracle, then with a fake
// measurement: every probe is a real sequential A/B (judge_sequential) of noisy synthetic
// launches, the reference against a candidate that is 25 % slower from the k-th on.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>

#include "harness/ab/ab_bisect.hpp"
#include "harness/ab/ab_compare.hpp"
#include "harness/ab/ab_sequential.hpp"
#include "tests/unit/ab/ab_fixtures.hpp"

namespace fabricgate::testing {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using ab::ProbeOutcome;

TEST(AbBisect, TheBoundIsCeilLog2PlusOne) {
  EXPECT_EQ(ab::bisect_probe_bound(1), 1u);
  EXPECT_EQ(ab::bisect_probe_bound(2), 2u);
  EXPECT_EQ(ab::bisect_probe_bound(6), 4u);
  EXPECT_EQ(ab::bisect_probe_bound(8), 4u);
  EXPECT_EQ(ab::bisect_probe_bound(9), 5u);
  EXPECT_THROW(ab::bisect_first_bad(0, [](std::size_t) { return ProbeOutcome::good; }), InputError);
}

TEST(AbBisect, EveryLadderAndEveryFirstBadIsFoundWithinTheBound) {
  for (std::size_t n = 1; n <= 40; ++n) {
    for (std::size_t k = 0; k <= n; ++k) {  // k == n: none is bad
      std::set<std::size_t> probed;
      const auto r = ab::bisect_first_bad(n, [&](std::size_t i) {
        EXPECT_TRUE(probed.insert(i).second) << "candidate " << i << " probed twice";
        return i >= k ? ProbeOutcome::bad : ProbeOutcome::good;
      });
      EXPECT_LE(r.probes.size(), ab::bisect_probe_bound(n)) << n << " " << k;
      if (k == n) {
        EXPECT_FALSE(r.first_bad.has_value());
        EXPECT_EQ(r.probes.size(), 1u);  // the last one is good: nothing else to look at
      } else {
        ASSERT_TRUE(r.first_bad.has_value()) << n << " " << k;
        EXPECT_EQ(*r.first_bad, k);
      }
    }
  }
}

TEST(AbBisect, AnUndecidedProbeStopsTheSearch) {
  const auto r = ab::bisect_first_bad(
      8, [](std::size_t i) { return i == 7 ? ProbeOutcome::bad : ProbeOutcome::undecided; });
  EXPECT_TRUE(r.stopped);
  EXPECT_FALSE(r.first_bad.has_value());
  EXPECT_NE(r.summary.find("not decided"), std::string::npos);
}

// One A/B of the reference against candidate `i` through the real sequential decision: B is
// 25 % slower when i >= k; 3 % launch drift, 2 % repetition noise.
ProbeOutcome measured_probe(std::size_t i, std::size_t k, unsigned seed) {
  std::mt19937_64 g(seed * 131 + i);
  std::normal_distribution<double> drift(0, 0.03);
  const double slowdown = i >= k ? 1.25 : 1.0;
  const ab::AbSchedule schedule{3, 12};
  const unsigned base = seed * 7919 + 100 * static_cast<unsigned>(i);
  ab::AbOptions o;
  o.tolerance = 0.08;
  std::vector<ab::AbPair> pairs;
  for (int p = 1; p <= schedule.max_pairs; ++p) {
    ResultSpec a;
    a.bytes = 1 << 20;
    a.time_us = noisy(100 * std::exp(drift(g)), 0.02, 5, base + 2 * static_cast<unsigned>(p));
    ResultSpec b = a;
    b.time_us = noisy(100 * slowdown * std::exp(drift(g)), 0.02, 5,
                      base + 2 * static_cast<unsigned>(p) + 1);
    pairs.push_back(ab_pair(p, {make_result(a)}, {make_result(b)}));
    if (p < schedule.min_pairs) continue;
    const auto c = ab::judge_sequential(ab_side("a"), ab_side("b"), pairs, o, schedule);
    if (c.exit_code == ExitCode::gate_failure) return ProbeOutcome::bad;
    if (c.decided) return ProbeOutcome::good;
  }
  return ProbeOutcome::undecided;
}

TEST(AbBisect, ANoisyLadderOfEightFindsItsFirstBadInNineOfTenRuns) {
  constexpr std::size_t kCandidates = 8;
  int found = 0;
  for (unsigned seed = 1; seed <= 10; ++seed) {
    const std::size_t k = 1 + seed % 6;  // the first bad one: 2nd ... 7th
    const auto r = ab::bisect_first_bad(kCandidates,
                                        [&](std::size_t i) { return measured_probe(i, k, seed); });
    EXPECT_LE(r.probes.size(), ab::bisect_probe_bound(kCandidates));
    if (r.first_bad == k) ++found;
  }
  EXPECT_GE(found, 9);
}

// A probe's answer comes from its settled A/B, not from the command that ran it: FAIL is bad, an
// open key (UNDECIDED, TWO-STATES) or a cut-short series is undecided, PASS beside NOISY is good.
TEST(AbBisect, AProbeAnswersFromItsSettledAb) {
  ab::AbComparison c;
  c.complete = true;
  c.keys.resize(2);
  c.keys[0].verdict = ab::AbVerdict::pass;
  c.keys[1].verdict = ab::AbVerdict::noisy;
  c.exit_code = ExitCode::pass;
  EXPECT_EQ(ab::probe_outcome(c), ProbeOutcome::good);
  c.keys[1].verdict = ab::AbVerdict::two_states;
  c.exit_code = ExitCode::infra_failure;
  EXPECT_EQ(ab::probe_outcome(c), ProbeOutcome::undecided);
  c.keys[1].verdict = ab::AbVerdict::undecided;
  c.exit_code = ExitCode::infra_failure;
  EXPECT_EQ(ab::probe_outcome(c), ProbeOutcome::undecided);
  c.keys[1].verdict = ab::AbVerdict::pass;
  c.complete = false;
  EXPECT_EQ(ab::probe_outcome(c), ProbeOutcome::undecided);
  c.keys[1].verdict = ab::AbVerdict::fail;
  c.exit_code = ExitCode::gate_failure;
  EXPECT_EQ(ab::probe_outcome(c), ProbeOutcome::bad);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::testing
