// Per-rank timings in the record (core/rank_timing.hpp) and the STRAGGLER judge
// (harness/cluster/outliers.hpp) on synthetic ranks.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/benchmark_result.hpp"
#include "core/errors.hpp"
#include "harness/cluster/outliers.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

// `n` ranks, `samples` samples; rank `slow` is `factor` x slower in every `every`-th sample.
BenchmarkResult timed(int n, int samples, int slow, double factor, int every = 1,
                      const std::string& key = "coll/mpi/all_reduce/float32/sum/65536") {
  std::vector<std::vector<double>> paces(static_cast<std::size_t>(n));
  std::vector<std::vector<double>> waits(static_cast<std::size_t>(n));
  for (int i = 0; i < samples; ++i) {
    for (int r = 0; r < n; ++r) {
      double pace = 100.0 + ((i * 7 + r * 3) % 5);  // ranks take turns by a few us
      if (r == slow && i % every == 0) pace *= factor;
      paces[static_cast<std::size_t>(r)].push_back(pace);
      waits[static_cast<std::size_t>(r)].push_back(r == slow ? pace - 100.0 : 0.0);
    }
  }
  BenchmarkResult b;
  b.key = key;
  b.family = "coll";
  b.backend = "mpi";
  b.op = "all_reduce";
  b.bytes = 65536;
  b.nranks = n;
  b.repetitions = samples;
  b.iterations = 10;
  b.samples.time_us.assign(static_cast<std::size_t>(samples), 100.0);
  b.ranks = rank_timings(paces, waits);
  for (RankTiming& t : b.ranks) {
    t.host = "node" + std::to_string(t.rank);
    t.cpu_set = std::to_string(t.rank);
  }
  summarise_samples(b);
  return b;
}

TEST(RankTimings, SummariesSharesAndCap) {
  const BenchmarkResult b = timed(3, 100, 2, 1.5);
  ASSERT_EQ(b.ranks.size(), 3u);
  EXPECT_EQ(b.ranks[2].slowest, 100);
  EXPECT_EQ(b.ranks[0].slowest + b.ranks[1].slowest, 0);
  EXPECT_EQ(b.ranks[2].count, 100);
  EXPECT_EQ(b.ranks[2].sample.size(), kRankSampleCap);
  EXPECT_LE(b.ranks[2].p50_us, b.ranks[2].p99_us);
  EXPECT_LE(b.ranks[2].p99_us, b.ranks[2].max_us);
  EXPECT_GE(b.ranks[2].p50_us, 150.0);
}

TEST(RankTimings, PaceIsTheWallTimeAtTheLeastServedRanksCpuTime) {
  // Two ranks, three samples of 10 us wall time each. Sample 0: rank 0 got 8 us of CPU, rank 1 only
  // 2 us (it held rank 0 back, which spun): paces 10 x 2 / 8 = 2.5 and 10. Sample 1: the reverse.
  // Sample 2: equal CPU time, equal paces.
  const std::vector<std::vector<double>> wall{{10, 10, 10}, {10, 10, 10}};
  const std::vector<std::vector<double>> off{{2, 8, 5}, {8, 2, 5}};
  const auto paces = rank_paces(wall, off, {{8, 2, 5}, {2, 8, 5}});
  EXPECT_EQ(paces, (std::vector<std::vector<double>>{{2.5, 10, 10}, {10, 2.5, 10}}));
  // Without every rank's CPU time (no CPU clock: an empty row, -1 in a sample): wall + off-CPU.
  EXPECT_EQ(rank_paces(wall, off, {{8, 2, 5}, {}}),
            (std::vector<std::vector<double>>{{12, 18, 15}, {18, 12, 15}}));
  EXPECT_EQ(rank_paces(wall, off, {{8, 2, 5}, {2, -1, 5}}),
            (std::vector<std::vector<double>>{{2.5, 18, 10}, {10, 12, 10}}));
}

TEST(RankTimings, RoundTripThroughTheStrictReader) {
  const BenchmarkResult b = timed(4, 20, 1, 1.3);
  const nlohmann::json j = to_json(b);
  const BenchmarkResult back = parse_benchmark_result(j, "records.jsonl", "");
  ASSERT_EQ(back.ranks.size(), 4u);
  EXPECT_EQ(to_json(back), j);
  EXPECT_EQ(back.ranks[1].host, "node1");
  EXPECT_EQ(back.ranks[1].slowest, b.ranks[1].slowest);
}

// Each broken field is refused with its pointer named.
TEST(RankTimings, ReaderRefusesBrokenFields) {
  const nlohmann::json good = to_json(timed(2, 10, 1, 1.3));
  const auto refused = [&](const std::string& pointer, const nlohmann::json& value,
                           const std::string& named) {
    nlohmann::json bad = good;
    bad[nlohmann::json::json_pointer(pointer)] = value;
    try {
      parse_benchmark_result(bad, "records.jsonl", "");
      ADD_FAILURE() << pointer << " accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(named), std::string::npos) << e.what();
    }
  };
  refused("/ranks/1/rank", 0, "/ranks/1/rank");         // a rank twice
  refused("/ranks/1/rank", 7, "/ranks/1/rank");         // outside [0, nranks)
  refused("/ranks/1/count", 9, "/ranks/1/count");       // counts differ
  refused("/ranks/0/p50_us", 1e9, "/ranks/0/p99_us");   // p50 > p99
  refused("/ranks/0/slowest", 11, "/ranks/0/slowest");  // more than count
  refused("/ranks/0/slowest", 3, "/ranks");             // shares do not sum to count
  refused("/ranks/0/host", 5, "/ranks/0/host");         // not a string
  refused("/ranks/0/sample_us", nlohmann::json::array({-1.0}), "/ranks/0/sample_us/0");
  nlohmann::json one_rank = good;
  one_rank["ranks"].erase(1);
  EXPECT_THROW(parse_benchmark_result(one_rank, "records.jsonl", ""), InputError);
}

TEST(Straggler, BinomialTail) {
  EXPECT_NEAR(cluster::binomial_upper_tail(10, 10, 0.5), 1.0 / 1024, 1e-12);
  EXPECT_NEAR(cluster::binomial_upper_tail(2, 1, 0.5), 0.75, 1e-12);
  EXPECT_DOUBLE_EQ(cluster::binomial_upper_tail(5, 0, 0.3), 1.0);
  EXPECT_DOUBLE_EQ(cluster::binomial_upper_tail(5, 6, 0.3), 0.0);
}

TEST(Straggler, NamesTheRankItsHostAndCpus) {
  const auto found = cluster::find_stragglers({timed(4, 40, 2, 1.5)});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].id, "STRAGGLER");
  EXPECT_TRUE(found[0].fails_gate);
  EXPECT_EQ(found[0].node, "node2");
  EXPECT_EQ(found[0].field, "rank 2");
  EXPECT_NE(found[0].text.find("host node2, CPUs 2"), std::string::npos) << found[0].text;
}

TEST(Straggler, CleanRanksTakingTurnsAreNotNamed) {
  EXPECT_TRUE(cluster::find_stragglers({timed(4, 40, -1, 1.0)}).empty());
}

// Slowest every time but by less than the margin: a systematic order, not a straggler.
TEST(Straggler, BelowTheMarginIsNotNamed) {
  EXPECT_TRUE(cluster::find_stragglers({timed(2, 40, 1, 1.08)}).empty());
}

// Slow in one sample of four: not more often than chance at 2 ranks.
TEST(Straggler, RarelySlowestIsNotNamed) {
  EXPECT_TRUE(cluster::find_stragglers({timed(2, 40, 1, 3.0, 4)}).empty());
}

TEST(Straggler, TooFewSamplesAreNotTested) {
  EXPECT_TRUE(cluster::find_stragglers({timed(2, 5, 1, 3.0)}).empty());
}

TEST(Straggler, SharedHostBlamesNoNode) {
  BenchmarkResult b = timed(2, 40, 1, 1.5);
  for (RankTiming& t : b.ranks) t.host = "box";
  const auto found = cluster::find_stragglers({b});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_TRUE(found[0].node.empty());
  EXPECT_NE(found[0].text.find("no node is blamed"), std::string::npos);
}

// Holm over keys: many keys with a weak rank each do not add up to a finding by chance.
TEST(Straggler, MergedPerRankAcrossKeys) {
  const auto found =
      cluster::find_stragglers({timed(2, 40, 1, 1.5, 1, "coll/mpi/all_reduce/float32/sum/65536"),
                                timed(2, 40, 1, 1.5, 1, "coll/mpi/all_reduce/float32/sum/131072")});
  ASSERT_EQ(found.size(), 1u);
  EXPECT_NE(found[0].text.find("2 of 2 keys"), std::string::npos) << found[0].text;
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
