// Real MPI ranks on localhost for the measurement modes and hang handling:
//   - a hang the bench can abort ends the run with exit 3, the record naming the benchmark, later
//     benchmarks not run; a rank stuck outside the poll loop makes the watchdog MPI_Abort the job;
//   - the in-process multi-GPU mode (P02) and CUDA-graph mode label keys, params and the header,
//     and are skipped with a reason on a machine without GPU; bad mode settings are refused;
//   - MPI on device memory gets its own key and is skipped with the library's own answer when the
//     MPI is not CUDA-aware (checked against ompi_info, an oracle independent of the bench).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>

#include "core/json_file.hpp"
#include "harness/fingerprint/subprocess.hpp"
#include "mpi_job.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;
using testing::mpirun;
using testing::run_job;

class ModesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("fg-modes-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write_suite(json suite) {
    suite["schema"] = "fabricgate.suite/1";
    suite["name"] = "t";
    if (!suite.contains("defaults"))
      suite["defaults"] = {{"repetitions", 2}, {"warmup", 2}, {"target_sample_ms", 1}};
    const fs::path p = dir_ / "suite.json";
    std::ofstream(p) << suite.dump(2);
    return p;
  }
  // Every line of records.jsonl by type.
  std::vector<json> lines(const std::string& type) const {
    std::vector<json> out;
    std::ifstream in(dir_ / "records.jsonl");
    for (std::string line; std::getline(in, line);) {
      json j = json::parse(line);
      if (j["type"] == type) out.push_back(j);
    }
    return out;
  }
  testing::JobResult bench(int ranks, const fs::path& suite, const char* program,
                           std::vector<std::string> extra = {}, int timeout_s = 120) {
    std::vector<std::string> argv = {program, "--suite", suite.string(), "--records",
                                     (dir_ / "records.jsonl").string()};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return run_job(mpirun(ranks, argv), timeout_s);
  }

  fs::path dir_;
};

TEST_F(ModesTest, AbortedHangNamesTheBenchmarkAndExits3) {
  const auto suite = write_suite(
      {{"benchmarks", json::array({{{"family", "stall"}, {"stuck", "all"}, {"timeout_s", 2}}})}});
  const auto t0 = std::chrono::steady_clock::now();
  const auto job = bench(2, suite, FABRICGATE_BENCH_TESTING);
  const auto took = std::chrono::steady_clock::now() - t0;
  ASSERT_FALSE(job.timed_out) << job.output;
  EXPECT_EQ(job.exit_code, 3) << job.output;
  EXPECT_LT(took, std::chrono::seconds(60));
  EXPECT_NE(job.output.find("hung: stall/stuck"), std::string::npos) << job.output;
  const auto recs = lines("benchmark");
  ASSERT_EQ(recs.size(), 3u) << job.output;
  EXPECT_EQ(recs[0]["key"], "stall/before");
  EXPECT_EQ(recs[0]["status"], "ok");
  EXPECT_EQ(recs[1]["key"], "stall/stuck");
  EXPECT_EQ(recs[1]["status"], "error");
  const std::string msg = recs[1]["message"];
  EXPECT_EQ(msg.rfind("hung: stall/stuck did not complete within its 2 s timeout", 0), 0u) << msg;
  EXPECT_NE(msg.find("still pending at the deadline"), std::string::npos) << msg;
  EXPECT_EQ(recs[2]["status"], "skipped");
  EXPECT_EQ(recs[2]["message"], "not run: stall/stuck hung earlier in this run");
  const auto footer = lines("footer");
  ASSERT_EQ(footer.size(), 1u);
  EXPECT_FALSE(footer[0]["complete"].get<bool>());
  EXPECT_EQ(footer[0]["hung"], "stall/stuck");
}

TEST_F(ModesTest, HangTimeoutFlagOverridesTheSuite) {
  const auto suite =
      write_suite({{"benchmarks", json::array({{{"family", "stall"}, {"timeout_s", 600}}})}});
  const auto job = bench(2, suite, FABRICGATE_BENCH_TESTING, {"--hang-timeout", "1.5"}, 60);
  ASSERT_FALSE(job.timed_out) << "--hang-timeout was not applied:\n" << job.output;
  EXPECT_EQ(job.exit_code, 3) << job.output;
  const auto recs = lines("benchmark");
  ASSERT_EQ(recs.size(), 3u);
  EXPECT_NE(recs[1]["message"].get<std::string>().find("within its 1.5 s timeout"),
            std::string::npos)
      << recs[1];
}

TEST_F(ModesTest, RankStuckOutsideThePollLoopEndsInMpiAbort) {
  const auto suite = write_suite(
      {{"benchmarks", json::array({{{"family", "stall"}, {"stuck", "host"}, {"timeout_s", 1}}})}});
  const auto t0 = std::chrono::steady_clock::now();
  const auto job = bench(2, suite, FABRICGATE_BENCH_TESTING, {}, 90);
  const auto took = std::chrono::steady_clock::now() - t0;
  ASSERT_FALSE(job.timed_out) << "the watchdog did not end the job:\n" << job.output;
  EXPECT_NE(job.exit_code, 0) << job.output;
  EXPECT_LT(took,
            std::chrono::seconds(60));  // deadline 1 s + grace 5 s, far below the 10 min sleep
  EXPECT_NE(job.output.find("MPI_Abort"), std::string::npos) << job.output;
  EXPECT_NE(job.output.find("stall/stuck"), std::string::npos) << job.output;
  // The start marker names what the run was doing; no record claims it finished.
  const auto starts = lines("start");
  ASSERT_FALSE(starts.empty());
  EXPECT_EQ(starts.back()["key"], "stall/stuck");
  for (const auto& r : lines("benchmark")) EXPECT_NE(r["key"], "stall/stuck");
}

TEST_F(ModesTest, MultiGpuPerProcessIsLabelledAndSkippedWithoutGpu) {
  // One process driving two GPUs: NCCL ranks = 2, keys and records say gpp:2 (P02).
  const auto suite = write_suite({{"ranks", 1},
                                  {"gpus_per_process", 2},
                                  {"benchmarks", json::array({{{"family", "coll"},
                                                               {"backend", "nccl"},
                                                               {"ops", {"all_reduce", "gather"}},
                                                               {"sizes", {{"list", {4096}}}}}})}});
  const auto job = bench(1, suite, FABRICGATE_BENCH);
  ASSERT_EQ(job.exit_code, 0) << job.output;
  const auto header = lines("header");
  ASSERT_EQ(header.size(), 1u);
  EXPECT_EQ(header[0]["gpus_per_process"], 2);
  const auto recs = lines("benchmark");
  ASSERT_EQ(recs.size(), 2u);
  for (const auto& r : recs) {
    SCOPED_TRACE(r.dump());
    EXPECT_EQ(r["status"], "skipped");
    EXPECT_EQ(r["gpus_per_process"], 2);
    EXPECT_EQ(r["nranks"], 2);
    EXPECT_NE(r["key"].get<std::string>().find("/ranks:2/gpp:2/"), std::string::npos);
    EXPECT_NE(r["message"].get<std::string>().find("GPU"), std::string::npos);
  }
}

TEST_F(ModesTest, MultiGpuPerProcessWithHostCollectivesIsStillP01) {
  const auto suite = write_suite(
      {{"gpus_per_process", 2},
       {"benchmarks",
        json::array({{{"family", "coll"}, {"backend", "nccl"}, {"sizes", {{"list", {4096}}}}},
                     {{"family", "coll"}, {"backend", "mpi"}, {"sizes", {{"list", {4096}}}}}})}});
  const auto job = bench(1, suite, FABRICGATE_BENCH);
  EXPECT_EQ(job.exit_code, 2) << job.output;
  EXPECT_NE(job.output.find("P01"), std::string::npos) << job.output;
}

TEST_F(ModesTest, BadGpusPerProcessIsRefusedNamingTheField) {
  const auto suite = write_suite(
      {{"gpus_per_process", 0},
       {"benchmarks",
        json::array({{{"family", "coll"}, {"backend", "nccl"}, {"sizes", {{"list", {4096}}}}}})}});
  const auto job = bench(2, suite, FABRICGATE_BENCH);
  EXPECT_EQ(job.exit_code, 2) << job.output;
  EXPECT_NE(job.output.find("/gpus_per_process"), std::string::npos) << job.output;
  EXPECT_NE(job.output.find("[1, 16]"), std::string::npos) << job.output;
}

TEST_F(ModesTest, GraphModeIsLabelledAndSkippedWithoutGpu) {
  const auto suite = write_suite({{"benchmarks", json::array({{{"family", "coll"},
                                                               {"backend", "nccl"},
                                                               {"graph", true},
                                                               {"ops", {"all_reduce"}},
                                                               {"sizes", {{"list", {4096}}}}},
                                                              {{"family", "coll"},
                                                               {"backend", "nccl"},
                                                               {"ops", {"all_reduce"}},
                                                               {"sizes", {{"list", {4096}}}}}})}});
  const auto job = bench(2, suite, FABRICGATE_BENCH);
  ASSERT_EQ(job.exit_code, 0) << job.output;
  const auto recs = lines("benchmark");
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0]["key"], "coll/nccl/all_reduce/float32/sum/bytes:4096/ranks:2/oop/graph");
  EXPECT_TRUE(recs[0]["params"]["graph"].get<bool>());
  EXPECT_EQ(recs[1]["key"],
            "coll/nccl/all_reduce/float32/sum/bytes:4096/ranks:2/oop");  // never the same key
  EXPECT_FALSE(recs[1]["params"].contains("graph"));
  for (const auto& r : recs) EXPECT_EQ(r["status"], "skipped");
}

TEST_F(ModesTest, CudaGraphFlagLabelsNcclButNotMpi) {
  const auto suite = write_suite({{"benchmarks", json::array({{{"family", "coll"},
                                                               {"backend", "nccl"},
                                                               {"ops", {"broadcast"}},
                                                               {"sizes", {{"list", {4096}}}}},
                                                              {{"family", "coll"},
                                                               {"backend", "mpi"},
                                                               {"ops", {"broadcast"}},
                                                               {"sizes", {{"list", {4096}}}}}})}});
  const auto job = bench(2, suite, FABRICGATE_BENCH, {"--cuda-graph"});
  ASSERT_EQ(job.exit_code, 0) << job.output;
  const auto recs = lines("benchmark");
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0]["key"], "coll/nccl/broadcast/float32/root:0/bytes:4096/ranks:2/oop/graph");
  EXPECT_EQ(recs[1]["key"], "coll/mpi/broadcast/float32/root:0/bytes:4096/ranks:2/oop");
  EXPECT_EQ(recs[1]["status"], "ok");
}

TEST_F(ModesTest, GraphModeOnMpiIsRefusedNamingTheField) {
  const auto suite = write_suite({{"benchmarks", json::array({{{"family", "coll"},
                                                               {"backend", "mpi"},
                                                               {"graph", true},
                                                               {"sizes", {{"list", {4096}}}}}})}});
  const auto job = bench(2, suite, FABRICGATE_BENCH);
  EXPECT_EQ(job.exit_code, 2) << job.output;
  EXPECT_NE(job.output.find("/benchmarks/0/graph"), std::string::npos) << job.output;
  EXPECT_NE(job.output.find("nccl only"), std::string::npos) << job.output;
}

// What Open MPI says of itself: "...:opal_built_with_cuda_support:value:true|false".
std::optional<bool> ompi_built_with_cuda() {
  const fs::path ompi_info = fs::path(MPIRUN).parent_path() / "ompi_info";
  const auto r = fingerprint::run_program({ompi_info.string(), "--parsable", "--all"}, 16 << 20,
                                          std::chrono::seconds(60));
  const std::string tag = "opal_built_with_cuda_support:value:";
  const auto at = r.out.find(tag);
  if (!r.succeeded() || at == std::string::npos) return std::nullopt;
  return r.out.compare(at + tag.size(), 4, "true") == 0;
}

TEST_F(ModesTest, MpiOnDeviceMemoryHasItsOwnKeyAndSaysWhyItCannotRun) {
  const auto suite = write_suite({{"benchmarks", json::array({{{"family", "coll"},
                                                               {"backend", "mpi"},
                                                               {"memory", "device"},
                                                               {"ops", {"all_reduce"}},
                                                               {"sizes", {{"list", {4096}}}}},
                                                              {{"family", "coll"},
                                                               {"backend", "mpi"},
                                                               {"memory", "host"},
                                                               {"ops", {"all_reduce"}},
                                                               {"sizes", {{"list", {4096}}}}}})}});
  const auto job = bench(2, suite, FABRICGATE_BENCH);
  ASSERT_EQ(job.exit_code, 0) << job.output;
  const auto recs = lines("benchmark");
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0]["key"], "coll/mpi/all_reduce/float32/sum/bytes:4096/ranks:2/oop/mem:device");
  EXPECT_EQ(recs[0]["params"]["memory"], "device");
  EXPECT_EQ(recs[1]["key"],
            "coll/mpi/all_reduce/float32/sum/bytes:4096/ranks:2/oop");  // host: the key as before
  EXPECT_FALSE(recs[1]["params"].contains("memory"));
  EXPECT_EQ(recs[1]["status"], "ok");
  const auto cuda = ompi_built_with_cuda();
  if (!cuda) GTEST_SKIP() << "ompi_info does not say whether this Open MPI is CUDA-aware";
  const std::string message = recs[0]["message"].get<std::string>();
  if (!*cuda) {
    // The library's answer, not the machine's: this MPI is never handed a device pointer.
    EXPECT_EQ(recs[0]["status"], "skipped");
    EXPECT_NE(message.find("not CUDA-aware"), std::string::npos) << message;
  } else if (recs[0]["status"] == "skipped") {
    EXPECT_NE(message.find("no GPU"), std::string::npos)
        << message;  // CUDA-aware MPI, GPU-less machine
  }
}

TEST_F(ModesTest, HostMemoryForNcclAndUnknownMemoryAreRefusedNamingTheField) {
  const auto nccl = write_suite({{"benchmarks", json::array({{{"family", "coll"},
                                                              {"backend", "nccl"},
                                                              {"memory", "host"},
                                                              {"sizes", {{"list", {4096}}}}}})}});
  auto job = bench(2, nccl, FABRICGATE_BENCH);
  EXPECT_EQ(job.exit_code, 2) << job.output;
  EXPECT_NE(job.output.find("/benchmarks/0/memory"), std::string::npos) << job.output;
  EXPECT_NE(job.output.find("NCCL uses GPU memory only"), std::string::npos) << job.output;
  const auto odd = write_suite({{"benchmarks", json::array({{{"family", "coll"},
                                                             {"backend", "mpi"},
                                                             {"memory", "gpu"},
                                                             {"sizes", {{"list", {4096}}}}}})}});
  job = bench(2, odd, FABRICGATE_BENCH);
  EXPECT_EQ(job.exit_code, 2) << job.output;
  EXPECT_NE(job.output.find("(host or device), found \"gpu\""), std::string::npos) << job.output;
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
