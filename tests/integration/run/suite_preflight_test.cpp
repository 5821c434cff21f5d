// `fabricgate run` checks a whole suite before the runner lock, the fingerprint, the run
// directory and mpirun: a wrong name, a launcher variable in "env" or a suite too large is exit 2
// printed once, naming the file, the entry, the field, the valid names and the nearest one, and
// nothing is written. The bench then registers a large suite in seconds, not minutes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "core/json_file.hpp"
#include "mpi_job.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;

class SuitePreflight : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("fg-preflight-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  testing::JobResult run(const json& suite, std::vector<std::string> extra = {}) {
    std::ofstream(dir_ / "s.json") << suite.dump(2);
    std::vector<std::string> args = {FABRICGATE_CLI,
                                     "run",
                                     "--suite",
                                     (dir_ / "s.json").string(),
                                     "--results-dir",
                                     (dir_ / "results").string(),
                                     "--lock",
                                     (dir_ / "lock").string(),
                                     "--bench",
                                     FABRICGATE_BENCH,
                                     "--platform",
                                     "test-box",
                                     "--no-compare",
                                     "--ranks",
                                     "2"};
    args.insert(args.end(), extra.begin(), extra.end());
    return testing::run_job(args, 120);
  }

  static json suite(json entry, json env = json::object()) {
    json s = {{"schema", "fabricgate.suite/1"},
              {"name", "pre"},
              {"ranks", 2},
              {"defaults", {{"repetitions", 1}, {"warmup", 1}, {"target_sample_ms", 1}}},
              {"benchmarks", json::array({entry})}};
    if (!env.empty()) s["env"] = env;
    return s;
  }

  static std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
  }

  // Exit 2, the message once, and no lock file, run directory or records.
  void expect_refused_before_launch(const testing::JobResult& r,
                                    const std::vector<std::string>& message) {
    EXPECT_FALSE(r.timed_out);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    for (const std::string& m : message) EXPECT_NE(r.output.find(m), std::string::npos) << r.output;
    EXPECT_EQ(count(r.output, "error:"), 1u) << "printed once, not once per rank\n" << r.output;
    EXPECT_FALSE(fs::exists(dir_ / "results")) << "a run directory was written";
    EXPECT_FALSE(fs::exists(dir_ / "lock")) << "the runner lock was taken";
    EXPECT_EQ(r.output.find("fabricgate-bench"), std::string::npos) << "the bench ran\n"
                                                                    << r.output;
  }

  fs::path dir_;
};

const json kSizes = {{"list", {64u, 4096u}}};

TEST_F(SuitePreflight, UnknownNamesAreRefusedWithTheNearestOne) {
  struct Case {
    json entry;
    std::vector<std::string> message;
  };
  const std::vector<Case> cases{
      {{{"family", "coll"}, {"backend", "mpi"}, {"ops", {"allreduce"}}, {"sizes", kSizes}},
       {"s.json: field /benchmarks/0/ops/0", "all_gather", "did you mean \"all_reduce\"?"}},
      {{{"family", "coll"}, {"backend", "mpii"}, {"sizes", kSizes}},
       {"field /benchmarks/0/backend", "mpi or nccl", "did you mean \"mpi\"?"}},
      {{{"family", "collective"}, {"backend", "mpi"}, {"sizes", kSizes}},
       {"field /benchmarks/0/family", "hostcopy", "\"collective\""}},
      {{{"family", "coll"},
        {"backend", "mpi"},
        {"dtypes", {"float32", "flaot64"}},
        {"sizes", kSizes}},
       {"field /benchmarks/0/dtypes/1", "did you mean \"float64\"?"}},
      {{{"family", "coll"}, {"backend", "mpi"}, {"memory", "gpu"}, {"sizes", kSizes}},
       {"field /benchmarks/0/memory", "host or device"}},
      {{{"family", "rdma"},
        {"backend", "libfabric"},
        {"ops", {"pingpong", "wirte"}},
        {"sizes", kSizes}},
       {"field /benchmarks/0/ops/1", "did you mean \"write\"?"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.entry.dump());
    expect_refused_before_launch(run(suite(c.entry)), c.message);
  }
}

TEST_F(SuitePreflight, LauncherEnvironmentNeedsTheFlagAndEveryOverrideIsPrinted) {
  const json entry = {{"family", "coll"},
                      {"backend", "mpi"},
                      {"ops", {"all_reduce"}},
                      {"sizes", {{"list", {64u}}}}};
  for (const char* name : {"LD_PRELOAD", "PATH", "NCCL_NET_PLUGIN", "OMPI_MCA_PLM_RSH_AGENT"}) {
    SCOPED_TRACE(name);
    expect_refused_before_launch(run(suite(entry, {{name, "/nonexistent/x"}})),
                                 {std::string("field /env/") + name, "--allow-suite-launcher-env"});
  }
  // Allowed: the launch goes ahead and the console names what the suite sets, secrets redacted.
  const testing::JobResult r =
      run(suite(entry, {{"LD_LIBRARY_PATH", "/nonexistent/lib"}, {"MY_TOKEN", "s3cr3t"}}),
          {"--allow-suite-launcher-env", "--launcher", "mpirun"});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("LD_LIBRARY_PATH=/nonexistent/lib"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("MY_TOKEN=<redacted>"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("s3cr3t"), std::string::npos) << r.output;
}

TEST_F(SuitePreflight, TooManyBenchmarksAreRefusedWithTheTotal) {
  json entry = {{"family", "coll"},
                {"backend", "mpi"},
                {"dtypes", {"int8", "int32", "float32", "float64"}},
                {"redops", {"sum", "max"}},
                {"sizes", {{"min", 1u}, {"max", "1G"}, {"factor", 1.01}}}};
  expect_refused_before_launch(run(suite(entry)),
                               {"field /benchmarks", "at most 50000 benchmarks", "found"});
}

// Names typed on the command line get the same nearest-name rule as names in a suite.
TEST_F(SuitePreflight, MistypedCommandsAndFormatsGetTheNearestName) {
  for (const auto& [typed, nearest] :
       std::vector<std::pair<std::string, std::string>>{{"rnu", "run"},
                                                        {"compaer", "compare"},
                                                        {"baselin", "baseline"},
                                                        {"hsitory", "history"}}) {
    const testing::JobResult r = testing::run_job({FABRICGATE_CLI, typed}, 30);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("did you mean \"" + nearest + "\"?"), std::string::npos) << r.output;
  }
  const testing::JobResult far = testing::run_job({FABRICGATE_CLI, "xyzzy"}, 30);
  EXPECT_EQ(far.exit_code, 2);
  EXPECT_EQ(far.output.find("did you mean"), std::string::npos) << far.output;
  const json entry = {{"family", "coll"}, {"backend", "mpi"}, {"sizes", kSizes}};
  const testing::JobResult r = run(suite(entry), {"--report", "markdwon"});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("did you mean \"markdown\"?"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir_ / "results"));
}

// 16,000 benchmarks: registration took 280 s with Google Benchmark's default filter (quadratic);
// listing them now takes a few seconds. 60 s leaves room for a loaded CI machine.
TEST_F(SuitePreflight, SixteenThousandBenchmarksRegisterInSeconds) {
  json benchmarks = json::array();
  for (unsigned e = 0; e < 5; ++e) {
    json list = json::array();
    for (unsigned i = 0; i < 3200; ++i) list.push_back(8u + e + 16u * i);
    benchmarks.push_back({{"family", "hostcopy"}, {"sizes", {{"list", list}}}});
  }
  const json s = {{"schema", "fabricgate.suite/1"}, {"name", "big"}, {"benchmarks", benchmarks}};
  std::ofstream(dir_ / "big.json") << s.dump();
  const auto t0 = std::chrono::steady_clock::now();
  const testing::JobResult r = testing::run_job(
      {FABRICGATE_BENCH, "--suite", (dir_ / "big.json").string(), "--benchmark_list_tests=true"},
      60);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_FALSE(r.timed_out) << "registration of 16,000 benchmarks took over 60 s";
  EXPECT_EQ(r.exit_code, 0) << r.output.substr(0, 2000);
  EXPECT_EQ(count(r.output, "hostcopy/host/memcpy/bytes:"), 16000u);
  RecordProperty("seconds", std::to_string(seconds));
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
