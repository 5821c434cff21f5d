// A FIFO where the gate reads a file (issue 58, round four "a FIFO that blocks forever"): a
// run.json, a baseline, a suite, a roofline policy, an imported fingerprint and a CA bundle each
// named by a FIFO nobody writes. Before, open(2) waited for a writer and the gate hung until CI
// killed it; now each is exit 2 within seconds, naming the path and saying it is a FIFO, and
// nothing is launched or written. A directory given as a file says so too.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/integration/bad_inputs/child_process.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;

const fs::path kGood = fs::path(FABRICGATE_SOURCE_DIR) / "tests/data/bad_inputs/good";
const fs::path kSlurmRun =
    fs::path(FABRICGATE_SOURCE_DIR) / "tests/data/slurm/20261201T091826Z-slurm-cpu-default";

class SpecialFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "fabricgate-fifo-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
    fs::create_directories(root_ / "logs");
    fifo_ = root_ / "fifo.json";
    ASSERT_EQ(::mkfifo(fifo_.c_str(), 0600), 0);
  }
  void TearDown() override { fs::remove_all(root_); }

  // Exit 2 within the limit (a hang is killed at 20 s and fails), naming the FIFO.
  void expect_refused(std::vector<std::string> args, const std::string& what) {
    args.insert(args.begin(), FABRICGATE_CLI);
    const auto start = std::chrono::steady_clock::now();
    const testing::ChildResult r = testing::run_child(
        args, root_, root_ / "logs", std::chrono::seconds(20), {"GITHUB_STEP_SUMMARY"});
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_FALSE(r.timed_out) << what << ": hung on the FIFO";
    EXPECT_EQ(r.exit_code, 2) << what << "\n" << r.output;
    EXPECT_LT(seconds, 10.0) << what;
    EXPECT_NE(r.output.find("a FIFO"), std::string::npos) << what << "\n" << r.output;
  }

  fs::path root_;
  fs::path fifo_;
};

TEST_F(SpecialFiles, AFifoInPlaceOfAnyInputFileIsRefusedAtOnce) {
  expect_refused({"compare", fifo_.string(), "--store", "none"}, "run.json");
  expect_refused({"compare", kSlurmRun.string(), "--baseline", fifo_.string(), "--store", "none"},
                 "baseline");
  expect_refused({"run", "--suite", fifo_.string(), "--results-dir", (root_ / "results").string(),
                  "--store", "none"},
                 "suite");
  expect_refused(
      {"import", "nccl-tests",
       (fs::path(FABRICGATE_SOURCE_DIR) / "tests/data/import/nccl-tests-wrong-results.txt")
           .string(),
       "--platform", "cpu-test", "--out", (root_ / "imported").string(), "--fingerprint",
       fifo_.string(), "--store", "none"},
      "fingerprint");
  expect_refused({"publish", kSlurmRun.string(), "--to", "webhook=http://127.0.0.1:9/hook",
                  "--ca-bundle", fifo_.string()},
                 "CA bundle");
  // The roofline policy `compare` reads from ./policies (the test runs in root_), a FIFO.
  fs::create_directories(root_ / "policies");
  ASSERT_EQ(::mkfifo((root_ / "policies" / "roofline.json").c_str(), 0600), 0);
  expect_refused({"compare", kSlurmRun.string(), "--store", "none"}, "roofline policy");
  EXPECT_FALSE(fs::exists(root_ / "results"));
  EXPECT_FALSE(fs::exists(root_ / "imported"));
}

// A file given as the baselines directory was NO BASELINE, exit 0: a typo for --baseline passed
// every run ungated. A directory given as an SQLite store said only "disk I/O error". Both are
// input errors now, saying what was expected.
TEST_F(SpecialFiles, AFileAsTheBaselinesDirAndADirectoryAsTheStoreAreInputErrors) {
  const auto cli = [&](std::vector<std::string> args) {
    args.insert(args.begin(), FABRICGATE_CLI);
    return testing::run_child(args, root_, root_ / "logs", std::chrono::seconds(60),
                              {"GITHUB_STEP_SUMMARY"});
  };
  const auto file = cli({"compare", (kGood / "run").string(), "--baselines-dir",
                         (kGood / "baseline.json").string(), "--store", "none"});
  EXPECT_EQ(file.exit_code, 2) << file.output;
  EXPECT_NE(file.output.find("a directory of baselines (--baselines-dir)"), std::string::npos)
      << file.output;
  fs::create_directories(root_ / "store-dir");
  const auto store =
      cli({"compare", (kGood / "run").string(), "--baseline", (kGood / "baseline.json").string(),
           "--store", "sqlite:" + (root_ / "store-dir").string()});
  EXPECT_EQ(store.exit_code, 2) << store.output;
  EXPECT_NE(store.output.find("names a file, not a directory"), std::string::npos) << store.output;
  EXPECT_EQ(store.output.find("disk I/O error"), std::string::npos) << store.output;
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
