// alltoallv with real MPI ranks (2, 3 and 4): uneven per-peer blocks (rank s sends d
// ((d − s) mod n + 1) units) arrive intact for several types and sizes, including sizes that are
// not a whole number of units, and the records carry the documented size and busbw factor.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "core/json_file.hpp"
#include "mpi_job.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;

class AlltoallvTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("fg-a2av-" + std::to_string(::getpid()) + "-" + std::to_string(GetParam()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<json> run_bench(const json& entry) {
    const json suite = {{"schema", "fabricgate.suite/1"},
                        {"name", "a2av"},
                        {"defaults", {{"repetitions", 2}, {"warmup", 1}, {"target_sample_ms", 1}}},
                        {"benchmarks", json::array({entry})}};
    std::ofstream(dir_ / "suite.json") << suite.dump(2);
    const auto job = testing::run_job(
        testing::mpirun(GetParam(), {FABRICGATE_BENCH, "--suite", (dir_ / "suite.json").string(),
                                     "--records", (dir_ / "records.jsonl").string()}),
        120);
    EXPECT_FALSE(job.timed_out) << job.output;
    EXPECT_EQ(job.exit_code, 0) << job.output;
    std::vector<json> out;
    std::ifstream in(dir_ / "records.jsonl");
    for (std::string line; std::getline(in, line);) {
      json j = json::parse(line);
      if (j["type"] == "benchmark") out.push_back(j);
    }
    return out;
  }

  fs::path dir_;
};

TEST_P(AlltoallvTest, UnevenBlocksArriveIntact) {
  const int n = GetParam();
  const std::size_t units = static_cast<std::size_t>(n * (n + 1) / 2);  // S: units per rank
  const auto recs = run_bench({{"family", "coll"},
                               {"backend", "mpi"},
                               {"ops", {"alltoallv"}},
                               {"dtypes", {"float32", "int8", "float64"}},
                               {"sizes", {{"list", {1000, 65536, 1048576}}}}});
  ASSERT_EQ(recs.size(), 9u);  // 3 types × 3 sizes, all large enough for one unit per block
  std::set<std::string> keys;
  for (const auto& r : recs) {
    SCOPED_TRACE(r.dump());
    EXPECT_EQ(r["status"], "ok");
    EXPECT_EQ(r["wrong_elements"], 0);  // every element of every uneven block checked on every rank
    EXPECT_EQ(r["nranks"], n);
    const std::string dtype = r["params"]["dtype"];
    const std::size_t elem = dtype == "int8" ? 1 : dtype == "float32" ? 4 : 8;
    const auto bytes = r["bytes"].get<std::size_t>();
    // One rank's send total, rounded down to whole units of S per rank.
    EXPECT_EQ(bytes % (units * elem), 0u);
    EXPECT_GT(bytes, 0u);
    const double share = static_cast<double>(units - 1) / static_cast<double>(units);
    EXPECT_DOUBLE_EQ(r["busbw_factor"].get<double>(), share);
    EXPECT_NEAR(r["busbw_GBps"].get<double>(), r["algbw_GBps"].get<double>() * share, 1e-9);
    const std::string key = r["key"];
    EXPECT_EQ(key, "coll/mpi/alltoallv/" + dtype + "/bytes:" + std::to_string(bytes) +
                       "/ranks:" + std::to_string(n) + "/oop");
    keys.insert(key);
  }
  EXPECT_EQ(keys.size(), recs.size());
}

TEST_P(AlltoallvTest, InPlaceIsSkippedWithAReason) {
  const auto recs = run_bench({{"family", "coll"},
                               {"backend", "mpi"},
                               {"ops", {"alltoallv"}},
                               {"placements", {"ip"}},
                               {"sizes", {{"list", {4096}}}}});
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0]["status"], "skipped");
  EXPECT_NE(recs[0]["message"].get<std::string>().find("in-place alltoallv"), std::string::npos)
      << recs[0].dump();
}

INSTANTIATE_TEST_SUITE_P(Ranks, AlltoallvTest, ::testing::Values(2, 3, 4));

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
