// Each verdict from synthetic run/baseline pairs; P02, P04, P05/P06, P19, the fingerprint guard,
// the no-baseline path and incomplete runs.
#include "harness/gate/compare.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"
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

// Times (us) that make sense for each size on a 2-rank CPU run.
double base_time(std::uint64_t bytes) { return 5.0 + static_cast<double>(bytes) / 2000.0; }

ResultSpec spec(std::uint64_t bytes, unsigned seed, double slowdown = 1.0, double noise = 0.003) {
  ResultSpec s;
  s.bytes = bytes;
  s.time_us = testing::noisy(base_time(bytes) * slowdown, noise, 5, seed);
  return s;
}

RunRecord run_of(const std::string& id, const std::vector<ResultSpec>& specs, RunSpec rs = {}) {
  rs.run_id = id;
  std::vector<json> results;
  for (const ResultSpec& s : specs) results.push_back(testing::make_result(s));
  return testing::to_run(testing::make_run(rs, results));
}

// A baseline made the supported way: three runs through create_baseline.
Baseline baseline_of(const std::vector<std::vector<ResultSpec>>& runs, RunSpec rs = {}) {
  std::vector<RunRecord> records;
  for (std::size_t i = 0; i < runs.size(); ++i)
    records.push_back(run_of("base-" + std::to_string(i), runs[i], rs));
  baseline::BaselineBuildOptions o;
  o.now = "2026-11-29T00:00:00Z";
  // One session of synthetic launches: the one-level band these tests are about, without the
  // between-session allowance (sessions and hosts: variance_components_test.cpp).
  o.policy.session_allowance = 0;
  Baseline b = baseline::create_baseline(records, o).baseline;
  b.source = "baselines/cpu-test-2c.json";
  return b;
}

std::vector<ResultSpec> three_sizes(unsigned seed) {
  return {spec(kSmall, seed), spec(kMedium, seed + 100), spec(kLarge, seed + 200)};
}

Baseline standard_baseline() {
  return baseline_of({three_sizes(1), three_sizes(2), three_sizes(3)});
}

const verdict::KeyComparison& find_key(const verdict::Comparison& c, std::uint64_t bytes) {
  for (const verdict::KeyComparison& k : c.keys) {
    if (k.bytes == bytes) return k;
  }
  throw std::runtime_error("no key of that size");
}

TEST(gate_Compare, SameDistributionPasses) {
  const Baseline b = standard_baseline();
  const verdict::Comparison c = compare_run(run_of("now", three_sizes(50)), &b, {});
  for (const verdict::KeyComparison& k : c.keys)
    EXPECT_EQ(k.verdict, verdict::Verdict::pass) << k.key << ": " << k.reason;
  EXPECT_EQ(c.exit_code, ExitCode::pass);
}

TEST(gate_Compare, FivePercentLargeRegressionWithTightSamplesFails) {
  const Baseline b = standard_baseline();
  auto now = three_sizes(60);
  now[2] = spec(kLarge, 260, 1.0 / 0.95);  // busbw -5 %
  const verdict::Comparison c = compare_run(run_of("now", now), &b, {});
  const verdict::KeyComparison& k = find_key(c, kLarge);
  EXPECT_EQ(k.verdict, verdict::Verdict::regression) << k.reason;
  ASSERT_TRUE(k.judgement);
  EXPECT_EQ(k.judgement->metric, verdict::Metric::busbw_GBps);
  EXPECT_NEAR(k.judgement->performance_ratio, 0.95, 0.01);
  EXPECT_EQ(k.judgement->launches, 3u);
  EXPECT_NE(k.reason.find("64 MiB"), std::string::npos);
  EXPECT_NE(k.reason.find("busbw_GBps"), std::string::npos);
  EXPECT_EQ(c.exit_code, ExitCode::gate_failure);
  EXPECT_EQ(c.keys.front().verdict, verdict::Verdict::regression);  // sorted: failures first
}

TEST(gate_Compare, SmallSizesAreJudgedOnLatencyWithWiderTolerance) {
  const Baseline b = standard_baseline();
  auto now = three_sizes(70);
  now[0] = spec(kSmall, 170,
                1.20);  // +20 % time: inside the small class's 35 % (launch-to-launch noise)
  const verdict::Comparison c = compare_run(run_of("now", now), &b, {});
  const verdict::KeyComparison& k = find_key(c, kSmall);
  ASSERT_TRUE(k.judgement);
  EXPECT_EQ(k.judgement->metric, verdict::Metric::time_us);
  EXPECT_EQ(k.judgement->size_class, "small");
  EXPECT_EQ(k.verdict, verdict::Verdict::pass) << k.reason;

  now[0] = spec(kSmall, 171, 1.60);  // +60 % time: a latency regression
  const verdict::Comparison worse = compare_run(run_of("now", now), &b, {});
  EXPECT_EQ(find_key(worse, kSmall).verdict, verdict::Verdict::regression);
}

TEST(gate_Compare, ImprovementIsReportedNotFailed) {
  const Baseline b = standard_baseline();
  auto now = three_sizes(80);
  now[1] = spec(kMedium, 180, 0.8);
  const verdict::Comparison c = compare_run(run_of("now", now), &b, {});
  EXPECT_EQ(find_key(c, kMedium).verdict, verdict::Verdict::improvement);
  EXPECT_EQ(c.exit_code, ExitCode::pass);
}

TEST(gate_Compare, LaunchWhoseRepetitionsDisagreeIsUnstableNotJudged) {
  const Baseline b = standard_baseline();
  auto now = three_sizes(90);
  const double t = base_time(kLarge);
  now[2].time_us = {0.6 * t, 0.8 * t, 1.0 * t, 1.3 * t, 1.5 * t};  // robust CV 1.4826 x 0.3 = 0.44
  const verdict::Comparison c = compare_run(run_of("now", now), &b, {});
  const verdict::KeyComparison& k = find_key(c, kLarge);
  EXPECT_EQ(k.verdict, verdict::Verdict::unstable) << k.reason;
  EXPECT_GT(k.judgement->launch_cv, b.policy.unstable_cv);
  EXPECT_NE(k.reason.find("not judged"), std::string::npos) << k.reason;
}

TEST(gate_Compare, SingleValueLaunchIsJudgedTheLaunchIsTheSample) {
  const Baseline b = standard_baseline();
  auto now = three_sizes(91);
  now[2].time_us = {base_time(kLarge) * 1.3};  // an imported figure: one value per size
  const verdict::Comparison c = compare_run(run_of("now", now), &b, {});
  EXPECT_EQ(find_key(c, kLarge).verdict, verdict::Verdict::regression)
      << find_key(c, kLarge).reason;
  EXPECT_EQ(find_key(c, kLarge).judgement->repetitions, 1u);
  now[2].time_us = {base_time(kLarge)};
  EXPECT_EQ(find_key(compare_run(run_of("now", now), &b, {}), kLarge).verdict,
            verdict::Verdict::pass);
}

TEST(gate_Compare, NewAndMissingKeys) {
  const Baseline b = standard_baseline();
  auto now = three_sizes(95);
  now.pop_back();                      // large key missing
  now.push_back(spec(4u << 20, 300));  // 4 MiB key new
  const verdict::Comparison c = compare_run(run_of("now", now), &b, {});
  EXPECT_EQ(find_key(c, kLarge).verdict, verdict::Verdict::missing);
  EXPECT_EQ(find_key(c, 4u << 20).verdict, verdict::Verdict::new_key);
  EXPECT_EQ(c.exit_code, ExitCode::gate_failure);  // a vanished benchmark fails the gate
}

TEST(gate_Compare, WrongResultsInvalidAndSkipped) {
  const Baseline b = standard_baseline();
  auto now = three_sizes(100);
  now[0].status = "wrong";
  now[1].notes =
      json::array({{{"id", "P01"}, {"level", "error"}, {"text", "nranks = 1: ranks never met"}}});
  now[2].status = "skipped";
  const verdict::Comparison c = compare_run(run_of("now", now), &b, {});
  EXPECT_EQ(find_key(c, kSmall).verdict, verdict::Verdict::wrong_results);
  const verdict::KeyComparison& invalid = find_key(c, kMedium);
  EXPECT_EQ(invalid.verdict, verdict::Verdict::invalid);
  EXPECT_NE(invalid.reason.find("P01"), std::string::npos);
  EXPECT_EQ(find_key(c, kLarge).verdict,
            verdict::Verdict::missing);  // the baseline measured it: see below
  EXPECT_EQ(c.exit_code, ExitCode::gate_failure);
}

// A key the baseline measured but this run skipped (libfabric offered no shm provider under
// FI_PROVIDER=tcp, a GPU went missing) fails as MISSING; a skip of a key the baseline never had
// stays a non-failing SKIPPED.
TEST(gate_Compare, SkippedKeyThatTheBaselineMeasuredFailsAsMissing) {
  const Baseline b = standard_baseline();
  auto now = three_sizes(100);
  now[2].status = "skipped";
  now[2].message = "provider shm not offered by libfabric";
  auto extra = spec(4u << 20, 300);
  extra.status = "skipped";
  now.push_back(extra);
  const verdict::Comparison c = compare_run(run_of("now", now), &b, {});
  const verdict::KeyComparison& gone = find_key(c, kLarge);
  EXPECT_EQ(gone.verdict, verdict::Verdict::missing);
  EXPECT_NE(gone.reason.find("measured in the baseline"), std::string::npos) << gone.reason;
  EXPECT_NE(gone.reason.find("provider shm not offered"), std::string::npos) << gone.reason;
  EXPECT_EQ(find_key(c, 4u << 20).verdict, verdict::Verdict::skipped);
  EXPECT_EQ(c.exit_code, ExitCode::gate_failure);

  now[2].status = "ok";
  const verdict::Comparison only_new_skip = compare_run(run_of("now", now), &b, {});
  EXPECT_EQ(find_key(only_new_skip, 4u << 20).verdict, verdict::Verdict::skipped);
  EXPECT_EQ(only_new_skip.exit_code, ExitCode::pass);
}

TEST(gate_Compare, AlgorithmChangeFailsEvenWhenBandwidthHeld) {
  auto with_choice = [](std::vector<ResultSpec> v, const std::string& algo) {
    for (ResultSpec& s : v)
      s.choice = {{"algo", {{algo, 20}}}, {"proto", {{"Simple", 20}}}, {"channels", {{"8", 20}}}};
    return v;
  };
  const Baseline b =
      baseline_of({with_choice(three_sizes(1), "Ring"), with_choice(three_sizes(2), "Ring"),
                   with_choice(three_sizes(3), "Ring")});
  const verdict::Comparison c =
      compare_run(run_of("now", with_choice(three_sizes(110), "NVLSTree")), &b, {});
  const verdict::KeyComparison& k = find_key(c, kMedium);
  EXPECT_EQ(k.verdict, verdict::Verdict::algo_changed);
  ASSERT_FALSE(k.changes.empty());
  EXPECT_EQ(k.changes[0].what, "algo");
  EXPECT_EQ(k.changes[0].before, "{Ring}");
  EXPECT_EQ(k.changes[0].after, "{NVLSTree}");
  EXPECT_NE(k.reason.find("P19"), std::string::npos);
}

RunSpec nccl_run(const std::string& network, bool gdrdma) {
  RunSpec rs;
  rs.capture = {{"path", "log"},      {"nccl_version", "2.28.3"},
                {"network", network}, {"transports", {"P2P/CUMEM"}},
                {"gdrdma", gdrdma},   {"env_overrides", json::object()}};
  return rs;
}

std::vector<ResultSpec> nccl_sizes(unsigned seed) {
  auto v = three_sizes(seed);
  for (ResultSpec& s : v) s.backend = "nccl";
  return v;
}

TEST(gate_Compare, SocketFallbackIsTransportChanged) {
  const RunSpec ib = nccl_run("IB", true);
  const Baseline b = baseline_of({nccl_sizes(1), nccl_sizes(2), nccl_sizes(3)}, ib);
  const verdict::Comparison c =
      compare_run(run_of("now", nccl_sizes(120), nccl_run("Socket", true)), &b, {});
  const verdict::KeyComparison& k = find_key(c, kLarge);
  EXPECT_EQ(k.verdict, verdict::Verdict::transport_changed);
  EXPECT_NE(k.reason.find("network IB -> Socket"), std::string::npos) << k.reason;
  EXPECT_EQ(c.exit_code, ExitCode::gate_failure);
}

TEST(gate_Compare, LostGdrdmaIsTransportChanged) {
  const Baseline b =
      baseline_of({nccl_sizes(1), nccl_sizes(2), nccl_sizes(3)}, nccl_run("IB", true));
  const verdict::Comparison c =
      compare_run(run_of("now", nccl_sizes(121), nccl_run("IB", false)), &b, {});
  const verdict::KeyComparison& k = find_key(c, kMedium);
  EXPECT_EQ(k.verdict, verdict::Verdict::transport_changed);
  EXPECT_NE(k.reason.find("GDRDMA -> no GDRDMA"), std::string::npos) << k.reason;
}

TEST(gate_Compare, LibfabricProviderChangeIsTransportChanged) {
  auto fabric = [](unsigned seed, const std::string& provider) {
    ResultSpec s = spec(kMedium, seed);
    s.family = "p2p";
    s.backend = "libfabric";
    s.op = "pingpong";
    s.busbw_factor = 0;
    s.params = {{"provider", provider}};
    return std::vector<ResultSpec>{s};
  };
  const Baseline b = baseline_of({fabric(1, "efa"), fabric(2, "efa"), fabric(3, "efa")});
  EXPECT_EQ(b.entries.begin()->second.metric, "algbw_GBps");  // no busbw: algbw for large sizes
  const verdict::Comparison c = compare_run(run_of("now", fabric(130, "tcp")), &b, {});
  ASSERT_EQ(c.keys.size(), 1u);
  EXPECT_EQ(c.keys[0].verdict, verdict::Verdict::transport_changed);
  EXPECT_NE(c.keys[0].reason.find("provider efa -> tcp"), std::string::npos);
}

// One key, two rank counts is not a run: a key names its rank count, and a record whose nranks
// disagrees with its key is refused on load (canonical keys). Another rank count is its own key,
// judged on time against the baseline's (P04): AnotherRankCountIsComparedOnTimeNotMissing.
TEST(gate_Compare, ARecordMeasuredOnOtherRanksThanItsKeySaysIsRefused) {
  auto now = three_sizes(140);
  std::vector<json> results;
  for (ResultSpec& s : now) {
    json r = testing::make_result(s);
    r["nranks"] = 4;  // the key says ranks:2
    results.push_back(r);
  }
  RunSpec rs;
  rs.nranks = 4;
  try {
    testing::to_run(testing::make_run(rs, results));
    FAIL() << "expected the key/record mismatch to be refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("matches the record's nranks (4)"), std::string::npos)
        << e.what();
  }
}

TEST(gate_Compare, MultiGpuPerProcessRunAgainstOneGpuBaselineIsRefused) {
  const Baseline b = standard_baseline();
  RunSpec rs;
  rs.gpus_per_process = 2;
  const RunRecord run = run_of("now", three_sizes(150), rs);
  try {
    compare_run(run, &b, {true});  // not even --force
    FAIL() << "expected P02 refusal";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("P02"), std::string::npos);
    EXPECT_EQ(e.field(), "/launch/gpus_per_process");
  }
}

// P02 per key: a benchmark measured with several GPUs in one process never meets a one-GPU entry,
// even when the run as a whole is in one-GPU mode (e.g. a multi-GPU copy among collectives).
TEST(gate_Compare, MultiGpuPerProcessKeyAgainstOneGpuEntryIsInvalid) {
  const Baseline b = standard_baseline();
  std::vector<ResultSpec> now = three_sizes(60);
  now[2].gpus_per_process = 2;
  const verdict::Comparison c = compare_run(run_of("now", now), &b, {});
  const verdict::KeyComparison& k = find_key(c, kLarge);
  EXPECT_EQ(k.verdict, verdict::Verdict::invalid);
  EXPECT_NE(k.reason.find("GPUs per process 1 -> 2"), std::string::npos) << k.reason;
  EXPECT_NE(k.reason.find("P02"), std::string::npos) << k.reason;
  EXPECT_EQ(find_key(c, kSmall).verdict, verdict::Verdict::pass);
  EXPECT_EQ(c.exit_code, ExitCode::gate_failure);
}

TEST(gate_Compare, DifferentIdentityRefusedUnlessForced) {
  const Baseline b = standard_baseline();
  RunSpec rs;
  rs.identity["cpu_model"] = "Other CPU 64c";
  const RunRecord run = run_of("now", three_sizes(160), rs);
  try {
    compare_run(run, &b, {});
    FAIL() << "expected identity refusal";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cpu_model Test CPU 2c -> Other CPU 64c"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("--force"), std::string::npos);
  }
  const verdict::Comparison forced = compare_run(run, &b, {true});
  EXPECT_TRUE(forced.identity_forced);
  EXPECT_FALSE(forced.warnings.empty());
}

TEST(gate_Compare, CpuModelIgnoredWhenBothHaveGpus) {
  RunSpec gpu;
  gpu.identity = {
      {"gpu_model", "NVIDIA H200"}, {"gpu_count", 2}, {"gpu_topology", "NV18"}, {"cpu_model", "A"}};
  const Baseline b = baseline_of({three_sizes(1), three_sizes(2), three_sizes(3)}, gpu);
  gpu.identity["cpu_model"] = "B";
  EXPECT_NO_THROW(compare_run(run_of("now", three_sizes(161), gpu), &b, {}));
  gpu.identity["gpu_count"] = 4;
  EXPECT_THROW(compare_run(run_of("now", three_sizes(162), gpu), &b, {}), InputError);
}

TEST(gate_Compare, VersionChangeIsReportedAndStillCompared) {
  const Baseline b = standard_baseline();
  RunSpec rs;
  rs.versions["nccl"] = "2.29.1";
  const verdict::Comparison c = compare_run(run_of("now", three_sizes(170), rs), &b, {});
  ASSERT_EQ(c.version_changes.size(), 1u);
  EXPECT_EQ(c.version_changes[0].component, "nccl");
  EXPECT_EQ(c.version_changes[0].before, "2.28.3");
  EXPECT_EQ(c.version_changes[0].after, "2.29.1");
  EXPECT_EQ(c.exit_code, ExitCode::pass);
}

TEST(gate_Compare, NoBaselineSaysHowToCreateOne) {
  RunRecord run = run_of("now", three_sizes(180));
  run.directory = "results/cpu-test-2c/now";
  const verdict::Comparison c = compare_run(run, nullptr, {});
  EXPECT_FALSE(c.has_baseline);
  for (const verdict::KeyComparison& k : c.keys) EXPECT_EQ(k.verdict, verdict::Verdict::new_key);
  EXPECT_EQ(c.exit_code, ExitCode::pass);
  EXPECT_NE(
      c.create_baseline_command.find("fabricgate baseline create --from results/cpu-test-2c/now"),
      std::string::npos);
  // Keyed by platform and suite; no launch count is suggested (three gate nothing on most keys).
  EXPECT_NE(c.create_baseline_command.find("--out baselines/cpu-test-2c/cpu.json"),
            std::string::npos)
      << c.create_baseline_command;
  EXPECT_EQ(c.create_baseline_command.find("third"), std::string::npos);
}

TEST(gate_Compare, NoBaselineForARecordedLaunchSaysGrow) {
  // `run` records launches as <results>/<platform>/<id>-<suite>-default: grow reads them all.
  RunRecord run = run_of("now", three_sizes(181));
  run.directory = "ci-results/cpu-test-2c/20261202T043632Z-cpu-default";
  const verdict::Comparison c = compare_run(run, nullptr, {});
  EXPECT_EQ(c.create_baseline_command,
            "fabricgate baseline grow --results-dir ci-results --suite cpu --out "
            "baselines/cpu-test-2c/cpu.json");
  // Another suite's directory name is not this run's layout: the explicit create stays.
  run.directory = "ci-results/cpu-test-2c/20261202T043632Z-p2p-default";
  EXPECT_NE(compare_run(run, nullptr, {}).create_baseline_command.find("baseline create --from"),
            std::string::npos);
}

TEST(gate_Compare, IncompleteRunExitsThreeUnlessTheGateFailed) {
  const Baseline b = standard_baseline();
  RunSpec rs;
  rs.complete = false;
  auto partial = three_sizes(190);
  partial.pop_back();
  const verdict::Comparison c = compare_run(run_of("now", partial, rs), &b, {});
  EXPECT_EQ(find_key(c, kLarge).verdict, verdict::Verdict::missing);
  EXPECT_TRUE(find_key(c, kLarge).missing_because_incomplete);
  EXPECT_EQ(c.exit_code, ExitCode::infra_failure);

  partial[1] = spec(kMedium, 191, 1.3);  // a regression among what was measured
  const verdict::Comparison failed = compare_run(run_of("now", partial, rs), &b, {});
  EXPECT_EQ(failed.exit_code, ExitCode::gate_failure);
}

// Noisy CPU: 8 % repetition noise with outliers and +-4 % run-to-run drift. Ten A/A reruns
// against a baseline of three such runs must raise no failure.
TEST(gate_Compare, TenNoisyAaRerunsRaiseNoFalseAlarm) {
  const std::vector<std::uint64_t> sizes{8,       1024,    8192,     65536,    1 << 18,
                                         1 << 20, 4 << 20, 16 << 20, 64u << 20};
  auto noisy_run = [&](unsigned seed) {
    std::vector<ResultSpec> v;
    const double drift = (static_cast<double>(seed % 9) - 4.0) / 100.0;  // -4 % .. +4 %
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      ResultSpec s;
      s.bytes = sizes[i];
      s.time_us = testing::noisy(base_time(sizes[i]), 0.08, 10,
                                 seed * 31 + static_cast<unsigned>(i), drift);
      v.push_back(s);
    }
    return v;
  };
  const Baseline b = baseline_of({noisy_run(1), noisy_run(5), noisy_run(9)});
  for (unsigned rerun = 0; rerun < 10; ++rerun) {
    const verdict::Comparison c =
        compare_run(run_of("aa-" + std::to_string(rerun), noisy_run(1000 + rerun * 7)), &b, {});
    EXPECT_EQ(c.exit_code, ExitCode::pass)
        << "rerun " << rerun << ": " << c.headline() << " first: " << c.keys.front().key << " "
        << c.keys.front().reason;
  }
}

TEST(gate_Compare, BandAlphaSetsTheBandWidth) {
  // Launch medians that drift by a few per cent: a stricter band_alpha widens the band.
  auto drifted = [](unsigned seed, double drift) {
    std::vector<ResultSpec> v = three_sizes(seed);
    v[2] = spec(kLarge, seed + 200, drift);
    return v;
  };
  Baseline b = baseline_of({drifted(1, 0.98), drifted(2, 1.0), drifted(3, 1.02)});
  const RunRecord now = run_of("now", drifted(4, 1.0));
  const double loose = find_key(compare_run(now, &b, {}), kLarge).judgement->tolerance;
  b.policy.band_alpha = 0.0001;
  const double strict = find_key(compare_run(now, &b, {}), kLarge).judgement->tolerance;
  EXPECT_GT(strict, loose);
  EXPECT_GT(loose, 0.03);  // wider than the large floor: the launches' own spread
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

// P04 end to end: a run at another rank count meets the baseline key of the same benchmark and is
// judged on elapsed time (never busbw); those baseline keys are not reported MISSING.
TEST(gate_Compare, AnotherRankCountIsComparedOnTimeNotMissing) {
  const Baseline b = standard_baseline();  // 2 ranks
  std::vector<ResultSpec> four = {spec(kLarge, 500)};
  four[0].nranks = 4;
  RunSpec rs;
  rs.nranks = 4;
  const verdict::Comparison same = compare_run(run_of("four", four, rs), &b, {});
  const verdict::KeyComparison& k = find_key(same, kLarge);
  ASSERT_TRUE(k.judgement) << k.reason;
  EXPECT_EQ(k.judgement->metric, verdict::Metric::time_us);
  EXPECT_EQ(k.verdict, verdict::Verdict::pass) << k.reason;
  bool p04 = false;
  for (const auto& n : k.notes) p04 = p04 || n.id == "P04";
  EXPECT_TRUE(p04);
  for (const auto& key : same.keys) {
    if (key.bytes == kLarge) {
      EXPECT_NE(key.verdict, verdict::Verdict::missing) << key.key;
    }
  }
  four[0] = spec(kLarge, 501, 1.5);  // 50 % slower at 4 ranks: a time regression
  four[0].nranks = 4;
  const verdict::Comparison slower = compare_run(run_of("four", four, rs), &b, {});
  EXPECT_EQ(find_key(slower, kLarge).verdict, verdict::Verdict::regression);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
