// Real MPI ranks on localhost: every collective gives correct data with 2, 3 and 4 ranks, records
// carry the exact busbw factor, ranks agree on batch sizes under skewed timings, P01 refuses a
// lone rank, and NCCL benchmarks are listed and skipped with a reason on a machine without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/json_file.hpp"
#include "mpi_job.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;
using testing::mpirun;
using testing::run_job;

// The test's name as one path component: a parameterised test's name holds a '/' ("Name/0"),
// which would make a nested directory whose parent TearDown never removes.
inline std::string flat_test_name() {
  std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::replace(name.begin(), name.end(), '/', '_');
  return name;
}

class CollectivesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("fg-coll-" + std::to_string(::getpid()) + "-" + flat_test_name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write_suite(const json& benchmarks,
                       const json& defaults = {
                           {"repetitions", 2}, {"warmup", 2}, {"target_sample_ms", 1}}) {
    const json suite = {{"schema", "fabricgate.suite/1"},
                        {"name", "t"},
                        {"defaults", defaults},
                        {"benchmarks", benchmarks}};
    const fs::path p = dir_ / "suite.json";
    std::ofstream(p) << suite.dump(2);
    return p;
  }

  std::vector<json> records() const {
    std::vector<json> out;
    std::ifstream in(dir_ / "records.jsonl");
    for (std::string line; std::getline(in, line);) {
      json j = json::parse(line);
      if (j["type"] == "benchmark") out.push_back(j);
    }
    return out;
  }

  testing::JobResult bench(int ranks, const fs::path& suite,
                           const char* program = FABRICGATE_BENCH) {
    return run_job(mpirun(ranks, {program, "--suite", suite.string(), "--records",
                                  (dir_ / "records.jsonl").string()}),
                   120);
  }

  fs::path dir_;
};

class EveryOpTest : public CollectivesTest, public ::testing::WithParamInterface<int> {};

TEST_P(EveryOpTest, AllOpsGiveCorrectDataWithRealRanks) {
  const int n = GetParam();
  const auto suite = write_suite(json::array({
      {{"family", "coll"},
       {"backend", "mpi"},
       {"dtypes", {"float32", "int32", "int8"}},
       {"redops", {"sum", "max"}},
       {"placements", {"oop", "ip"}},
       {"root", 1},
       {"sizes", {{"list", {8, 4096, 262144}}}}},
      {{"family", "coll"},
       {"backend", "mpi"},
       {"ops", {"all_reduce", "reduce"}},
       {"dtypes", {"float64", "uint8"}},
       {"redops", {"prod", "min"}},
       {"sizes", {{"list", {1000}}}}},
  }));
  const auto job = bench(n, suite);
  ASSERT_FALSE(job.timed_out) << job.output;
  ASSERT_EQ(job.exit_code, 0) << job.output;
  const auto recs = records();
  int ok = 0;
  for (const auto& r : recs) {
    SCOPED_TRACE(r.dump());
    EXPECT_NE(r["status"], "wrong");
    EXPECT_NE(r["status"], "error");
    EXPECT_EQ(r["wrong_elements"], 0);
    EXPECT_EQ(r["nranks"], n);
    if (r["status"] == "skipped") {
      // MPI's in-place forms that differ from NCCL's are the only skips here.
      EXPECT_TRUE(r["params"]["inplace"].get<bool>());
      EXPECT_NE(r["message"].get<std::string>().find("in-place"), std::string::npos);
      continue;
    }
    ++ok;
    EXPECT_EQ(r["samples"]["time_us"].size(), 2u);
    // busbw = algbw × factor, with the factor of this rank count.
    const std::string op = r["op"];
    const bool full_buffer = op == "all_gather" || op == "reduce_scatter" || op == "alltoall" ||
                             op == "gather" || op == "scatter";
    const double uneven_share =
        double(n * (n + 1) / 2 - 1) / (n * (n + 1) / 2);  // alltoallv: local 1 of S units
    const double expected_factor = op == "all_reduce"  ? 2.0 * (n - 1) / n
                                   : full_buffer       ? double(n - 1) / n
                                   : op == "alltoallv" ? uneven_share
                                                       : 1.0;
    EXPECT_DOUBLE_EQ(r["busbw_factor"].get<double>(), expected_factor);
    EXPECT_NEAR(r["busbw_GBps"].get<double>(), r["algbw_GBps"].get<double>() * expected_factor,
                1e-9);
    // Sizes are rounded to whole elements × ranks where the op needs it.
    const std::string key = r["key"];
    EXPECT_NE(key.find("/ranks:" + std::to_string(n) + "/"), std::string::npos);
  }
  // 10 ops × 3 types × sizes × placements (minus skips) + 2 ops × 2 types × 2 redops.
  EXPECT_GE(ok, 60);
}

INSTANTIATE_TEST_SUITE_P(Ranks, EveryOpTest, ::testing::Values(2, 3, 4));

TEST_F(CollectivesTest, RanksWithSkewedTimesAgreeOnBatchSizes) {
  const auto suite = write_suite(json::array({{{"family", "skew"}}}),
                                 {{"repetitions", 3}, {"warmup", 3}, {"target_sample_ms", 5}});
  const auto job = bench(3, suite, FABRICGATE_BENCH_TESTING);
  ASSERT_FALSE(job.timed_out) << "ranks disagreed on operation counts and deadlocked:\n"
                              << job.output;
  ASSERT_EQ(job.exit_code, 0) << job.output;
  const auto recs = records();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0]["status"], "ok");
  // The slowest rank (180 µs/op) sets the batch: about 5 ms / 180 µs ≈ 28, far from rank 0's 250.
  EXPECT_LT(recs[0]["iterations"].get<int>(), 100);
}

TEST_F(CollectivesTest, LoneRankIsRefusedP01) {
  const auto suite = write_suite(
      json::array({{{"family", "coll"}, {"backend", "mpi"}, {"sizes", {{"list", {8}}}}}}));
  const auto job = bench(1, suite);
  EXPECT_EQ(job.exit_code, 2) << job.output;
  EXPECT_NE(job.output.find("P01"), std::string::npos) << job.output;
  EXPECT_TRUE(records().empty());
}

TEST_F(CollectivesTest, NcclBenchmarksAreListedAndSkippedWithoutGpu) {
  const auto suite = write_suite(json::array({{{"family", "coll"},
                                               {"backend", "nccl"},
                                               {"ops", {"all_reduce", "all_gather"}},
                                               {"sizes", {{"list", {1024, 1048576}}}}}}));
  const auto job = bench(2, suite);
  ASSERT_EQ(job.exit_code, 0) << job.output;
  const auto recs = records();
  ASSERT_EQ(recs.size(), 4u);
  for (const auto& r : recs) {
    EXPECT_EQ(r["status"], "skipped");
    const std::string msg = r["message"];
    EXPECT_TRUE(msg.find("GPU") != std::string::npos || msg.find("NCCL") != std::string::npos)
        << msg;
  }
}

TEST_F(CollectivesTest, BadSuiteFieldIsAnInputErrorNamingTheField) {
  const auto suite = write_suite(json::array({{{"family", "coll"},
                                               {"backend", "mpi"},
                                               {"dtypes", {"float128"}},
                                               {"sizes", {{"list", {8}}}}}}));
  const auto job = bench(2, suite);
  EXPECT_EQ(job.exit_code, 2) << job.output;
  EXPECT_NE(job.output.find("/benchmarks/0/dtypes/0"), std::string::npos) << job.output;
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
