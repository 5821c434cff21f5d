// Two noise levels (harness/stats/variance_components.hpp), the exact binomial bound
// (binomial_bound.hpp) and the host id (harness/model/host_identity.hpp). Expected numbers were
// computed independently with NumPy 1.24 / SciPy 1.10 by
// tests/unit/gate/variance_components_reference.py (ANOVA by hand, checked against
// scipy.stats.f_oneway; Clopper-Pearson by scipy.stats.beta.ppf; FNV-1a re-implemented in Python).
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "harness/gate/launch_band.hpp"
#include "harness/model/host_identity.hpp"
#include "harness/stats/binomial_bound.hpp"
#include "harness/stats/statistics.hpp"
#include "harness/stats/variance_components.hpp"

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

std::vector<std::vector<double>> logs(const std::vector<std::vector<double>>& groups) {
  std::vector<std::vector<double>> out;
  for (const auto& g : groups) {
    out.emplace_back();
    for (const double x : g) out.back().push_back(std::log(x));
  }
  return out;
}

TEST(stats_VarianceComponents, UnbalancedSessionsMatchNumpy) {
  // Four sessions of 4, 2, 3 and 1 launches (GB/s): a between-session term well above the within.
  const auto g =
      logs({{55.50, 55.42, 55.61, 55.47}, {54.90, 55.02}, {56.10, 56.31, 56.02}, {55.30}});
  const stats::VarianceComponents c = stats::variance_components(g);
  EXPECT_EQ(c.sessions, 4u);
  EXPECT_EQ(c.values, 10u);
  EXPECT_TRUE(c.between_estimated);
  EXPECT_FALSE(c.between_clamped);
  EXPECT_NEAR(c.centre, 4.015916442068354, 1e-12);
  EXPECT_NEAR(c.ms_within, 3.816032785909016e-06, 1e-15);
  EXPECT_NEAR(c.ms_between, 0.00019652181866032926, 1e-14);
  EXPECT_NEAR(c.n0, 2.3333333333333335, 1e-12);
  EXPECT_NEAR(c.between_var, 8.25881939461801e-05, 1e-14);
  EXPECT_NEAR(c.within_var, 3.816032785909016e-06, 1e-15);
  EXPECT_NEAR(c.predictive_var, 0.00010754815448763271, 1e-14);
  EXPECT_NEAR(c.dof, 3.1299569021781033, 1e-9);
  EXPECT_NEAR(stats::student_t_quantile(0.99, c.dof), 4.393350377360963, 1e-6);
}

TEST(stats_VarianceComponents, BetweenBelowWithinIsClampedToZero) {
  const auto g = logs({{10.0, 10.4, 9.7}, {10.1, 9.8, 10.3}, {10.2, 9.9, 10.05}});
  const stats::VarianceComponents c = stats::variance_components(g);
  EXPECT_TRUE(c.between_estimated);
  EXPECT_TRUE(c.between_clamped);
  EXPECT_EQ(c.between_var, 0.0);
  EXPECT_NEAR(c.centre, 2.307341511260655, 1e-12);
  EXPECT_NEAR(c.ms_between, 9.321639291163829e-06, 1e-15);
  EXPECT_NEAR(c.predictive_var, 0.000767163495490236, 1e-14);
  EXPECT_DOUBLE_EQ(c.dof, 6.0);
}

TEST(stats_VarianceComponents, TwoSessionsUseTheAllowanceAndSaySo) {
  const auto g = logs({{20.0, 20.3, 19.8}, {20.6, 20.4}});
  const stats::VarianceComponents c = stats::variance_components(g, {3, 0.02});
  EXPECT_FALSE(c.between_estimated);
  EXPECT_NEAR(c.between_var, 0.0004, 1e-15);
  EXPECT_NEAR(c.centre, 3.0088790103784637, 1e-12);
  EXPECT_NEAR(c.predictive_var, 0.0005459942706081463, 1e-14);
  // The allowance is a constant: Satterthwaite over the measured part alone.
  EXPECT_NEAR(c.dof, 41.95906483445775, 1e-8);
  // The same data with the between term demanded from two sessions: estimated, not the allowance.
  const stats::VarianceComponents two = stats::variance_components(g, {2, 0.02});
  EXPECT_TRUE(two.between_estimated);
  EXPECT_NE(two.between_var, 0.0004);
}

TEST(stats_VarianceComponents, BalancedByHand) {
  // Three sessions of two launches, logs {0, 0.02}, {0.1, 0.12}, {0.2, 0.22}: session means
  // 0.01, 0.11, 0.21 (centre 0.11); SSW = 6 x 0.0001 = 0.0006 over 3 df: MSW = 0.0002;
  // MSB = 2 x (0.01 + 0 + 0.01) / 2 = 0.02; n0 = 2; sb2 = (0.02 - 0.0002) / 2 = 0.0099;
  // V = 0.0099 x 4/3 + 0.0002 x (1 + 1.5/9) = 0.0132 + 0.000233333 = 0.013433333.
  const std::vector<std::vector<double>> g{{0, 0.02}, {0.1, 0.12}, {0.2, 0.22}};
  const stats::VarianceComponents c = stats::variance_components(g);
  EXPECT_NEAR(c.centre, 0.11, 1e-12);
  EXPECT_NEAR(c.ms_within, 0.0002, 1e-12);
  EXPECT_NEAR(c.ms_between, 0.02, 1e-12);
  EXPECT_NEAR(c.between_var, 0.0099, 1e-12);
  EXPECT_NEAR(c.predictive_var, 0.0132 + 0.0002 * (1 + 1.5 / 9), 1e-12);
}

TEST(stats_VarianceComponents, OneLaunchPerSessionCannotSplitTheTerms) {
  const std::vector<std::vector<double>> g{{0.0}, {0.1}, {0.2}, {0.3}};
  const stats::VarianceComponents c = stats::variance_components(g);
  EXPECT_TRUE(c.between_estimated);
  EXPECT_FALSE(c.within_measured);
  // Sample variance of 0, .1, .2, .3 is 0.05/3; V = that x (1 + 1/4).
  EXPECT_NEAR(c.between_var, 0.05 / 3, 1e-12);
  EXPECT_NEAR(c.predictive_var, 0.05 / 3 * 1.25, 1e-12);
  EXPECT_DOUBLE_EQ(c.dof, 3.0);
}

TEST(stats_VarianceComponents, EmptyGroupsAreIgnored) {
  const std::vector<std::vector<double>> g{{}, {0, 0.02}, {}, {0.1, 0.12}, {0.2, 0.22}};
  EXPECT_EQ(stats::variance_components(g).sessions, 3u);
  EXPECT_EQ(stats::variance_components(std::vector<std::vector<double>>{}).sessions, 0u);
}

TEST(stats_BinomialBound, ClopperPearsonMatchesScipy) {
  EXPECT_NEAR(stats::binomial_upper_bound(0, 40, 0.95), 0.07215752450551455, 1e-9);
  EXPECT_NEAR(stats::binomial_upper_bound(1, 40, 0.95), 0.11318836094473754, 1e-9);
  EXPECT_NEAR(stats::binomial_upper_bound(3, 120, 0.95), 0.06334394100185876, 1e-9);
  EXPECT_NEAR(stats::binomial_upper_bound(0, 300, 0.95), 0.009936081944457708, 1e-9);
  EXPECT_EQ(stats::binomial_upper_bound(5, 5, 0.95), 1.0);
  EXPECT_EQ(stats::binomial_upper_bound(0, 0, 0.95), 1.0);
  EXPECT_NEAR(stats::binomial_cdf(2, 30, 0.05), 0.8121788131469607, 1e-12);
}

TEST(model_HostIdentity, DigestOfSortedGpuUuidsAndHostName) {
  // UUIDs in reverse order: the id must not depend on the order the GPUs are listed in.
  const nlohmann::json fp = {
      {"host", {{"hostname", "vm"}, {"cpu_model", "ignored when there are GPUs"}}},
      {"gpus", {{"devices", {{{"uuid", "GPU-2222"}}, {{"uuid", "GPU-1111"}}}}}}};
  EXPECT_EQ(host_id_of(fp), "709f6e57a7d0");
  const nlohmann::json cpu = {
      {"host", {{"hostname", "ci-7"}, {"cpu_model", "Intel(R) Xeon(R) Processor"}}}};
  EXPECT_EQ(host_id_of(cpu), "dfedcbbd0258");
  nlohmann::json other = fp;
  other["gpus"]["devices"][0]["uuid"] = "GPU-3333";
  EXPECT_NE(host_id_of(other), host_id_of(fp));
  EXPECT_EQ(host_id_of(nlohmann::json::object()).size(), 12u);
  EXPECT_EQ(session_id_of("20261201T084506Z", "709f6e57a7d0", 4242),
            "20261201T084506Z-709f6e57a7d0-4242");
}

// Four sessions (hosts a, a, a, b) of one key, as a /3 baseline holds them.
struct SessionFixture {
  BaselineEntry entry;
  std::map<std::string, std::string> hosts{{"s1", "a"}, {"s2", "a"}, {"s3", "a"}, {"s4", "b"}};
  SessionFixture() {
    entry.bytes = 1ULL << 30;
    entry.algbw_GBps.run_medians = {55.50, 55.42, 55.61, 55.47, 54.90,
                                    55.02, 56.10, 56.31, 56.02, 55.30};
    entry.algbw_GBps.run_sessions = {"s1", "s1", "s1", "s1", "s2", "s2", "s3", "s3", "s3", "s4"};
  }
};

TEST(gate_SessionBand, PlatformBandCoversBothLevels) {
  const SessionFixture f;
  const TolerancePolicy p = TolerancePolicy::defaults();  // band_alpha 0.01, 3 sessions, 2 %
  const LaunchBand b = session_band(p, f.entry, f.entry.algbw_GBps, "", f.hosts);
  EXPECT_EQ(b.centre_scope, "platform");
  EXPECT_EQ(b.sessions, 4u);
  EXPECT_EQ(b.hosts, 2u);
  EXPECT_EQ(b.launches, 10u);
  EXPECT_TRUE(b.between_estimated);
  EXPECT_NEAR(b.centre, 55.47411092315144, 1e-9);
  EXPECT_NEAR(b.half_width, 0.04453909069765849, 1e-7);
  EXPECT_NEAR(b.dof, 3.1299569021781033, 1e-9);
  EXPECT_NEAR(b.between_sd, std::sqrt(8.25881939461801e-05), 1e-9);
  EXPECT_NEAR(b.within_sd, std::sqrt(3.816032785909016e-06), 1e-9);
  EXPECT_DOUBLE_EQ(b.tolerance, b.half_width);  // above the 3 % floor
  // launch_band is the platform session band.
  EXPECT_NEAR(launch_band(p, f.entry, f.entry.algbw_GBps).half_width, b.half_width, 1e-15);
}

TEST(gate_SessionBand, HostWithEnoughSessionsIsJudgedOnItsOwnCentre) {
  const SessionFixture f;
  const TolerancePolicy p = TolerancePolicy::defaults();  // host_min_sessions 3
  const LaunchBand a = session_band(p, f.entry, f.entry.algbw_GBps, "a", f.hosts);
  EXPECT_EQ(a.centre_scope, "host");
  EXPECT_EQ(a.host, "a");
  EXPECT_EQ(a.sessions, 3u);
  EXPECT_NEAR(a.centre, 55.532269631235735, 1e-9);
  EXPECT_NEAR(a.half_width, 0.07345794093655944, 1e-7);
  // Host b has one session: the platform judges it.
  const LaunchBand b = session_band(p, f.entry, f.entry.algbw_GBps, "b", f.hosts);
  EXPECT_EQ(b.centre_scope, "platform");
  EXPECT_EQ(b.sessions, 4u);
}

TEST(gate_SessionBand, UntaggedLaunchesAreOneSessionWithTheAllowance) {
  BaselineEntry e;
  e.bytes = 1ULL << 30;
  e.time_us.run_medians = {100, 100.1, 99.9, 100, 100.05};  // a /2 file: no run_sessions
  TolerancePolicy p = TolerancePolicy::defaults();
  LaunchBand b = launch_band(p, e, e.time_us);
  EXPECT_EQ(b.sessions, 1u);
  EXPECT_FALSE(b.between_estimated);
  EXPECT_DOUBLE_EQ(b.between_sd, 0.02);
  // dof here is ~1e7 (the allowance dominates); the band caps it at 1e5, where t differs from
  // SciPy's exact quantile by < 1e-4 relative.
  EXPECT_NEAR(b.half_width, 0.045497845688057925, 5e-6);
  p.session_allowance = 0;
  b = launch_band(p, e, e.time_us);
  EXPECT_NEAR(b.half_width, 0.0030394761679083393, 1e-7);
  EXPECT_NEAR(b.centre, 100.00997799859218, 1e-9);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
