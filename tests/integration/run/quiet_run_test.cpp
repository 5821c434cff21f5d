// `fabricgate run`'s console with real mpirun ranks: Google Benchmark's table (mean / median /
// stddev / cv rows) is not on the console but in the run directory's bench-console.txt, the
// skipped benchmarks of one reason are one line, and --verbose brings the table and every key
// back. Through a pipe no progress line appears; on a terminal it is one line rewritten in place.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "core/json_file.hpp"
#include "mpi_job.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;

class QuietRun : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("fg-quiet-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    // 6 measured benchmarks and 6 skipped for one reason (MPI has no float16).
    const json s = {{"schema", "fabricgate.suite/1"},
                    {"name", "quiet"},
                    {"ranks", 2},
                    {"defaults", {{"repetitions", 3}, {"warmup", 2}, {"target_sample_ms", 2}}},
                    {"benchmarks", json::array({{{"family", "coll"},
                                                 {"backend", "mpi"},
                                                 {"ops", {"all_reduce", "alltoallv"}},
                                                 {"dtypes", {"float32", "float16"}},
                                                 {"sizes", {{"list", {64, 4096, 65536}}}}}})}};
    std::ofstream(dir_ / "quiet.json") << s.dump(2);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // --heartbeat 0 by default: these tests count the lines of a quiet console, which a loaded
  // machine must not lengthen by heartbeats.
  testing::JobResult run(bool verbose, const std::string& heartbeat = "0",
                         const std::string& suite = "quiet.json") {
    std::vector<std::string> args = {FABRICGATE_CLI,  "run",
                                     "--heartbeat",   heartbeat,
                                     "--suite",       (dir_ / suite).string(),
                                     "--results-dir", (dir_ / "results").string(),
                                     "--lock",        (dir_ / "lock").string(),
                                     "--bench",       FABRICGATE_BENCH,
                                     "--platform",    "test-box"};
    if (verbose) args.push_back("--verbose");
    return testing::run_job(args, 120);
  }

  fs::path only_run_dir() const {
    std::vector<fs::path> dirs;
    for (const auto& e : fs::directory_iterator(dir_ / "results" / "test-box"))
      dirs.push_back(e.path());
    EXPECT_EQ(dirs.size(), 1u);
    return dirs.empty() ? fs::path() : dirs.front();
  }

  fs::path dir_;
};

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST_F(QuietRun, TableGoesToTheRunDirectoryAndSkipsAreOneLine) {
  const auto job = run(false);
  ASSERT_EQ(job.exit_code, 0)
      << job.output;  // no baseline for test-box: pass, with the create command
  EXPECT_EQ(job.output.find("_mean"), std::string::npos) << job.output;
  EXPECT_EQ(job.output.find("_cv"), std::string::npos) << job.output;
  EXPECT_EQ(job.output.find('\r'), std::string::npos) << "no progress line on a pipe:\n"
                                                      << job.output;
  EXPECT_TRUE(std::regex_search(
      job.output,
      std::regex(
          R"(\nSKIPPED 6 keys \(e\.g\. coll/mpi/\S+/float16/\S+\): rank 0: MPI has no standard type for float16\n)")))
      << job.output;
  // Launch line, headline, what was judged without a baseline and the commands that make one (4),
  // one line each for new keys, skips, notes, the roofline and the pitfall legend.
  EXPECT_LE(std::count(job.output.begin(), job.output.end(), '\n'), 14) << job.output;

  const std::string table = read(only_run_dir() / "bench-console.txt");
  EXPECT_NE(table.find("coll/mpi/alltoallv/float32/bytes:65532/ranks:2/oop"), std::string::npos)
      << table;
  EXPECT_NE(table.find("_mean"), std::string::npos) << table;
}

TEST_F(QuietRun, VerbosePrintsTheTableAndEveryKey) {
  const auto job = run(true);
  ASSERT_EQ(job.exit_code, 0) << job.output;
  EXPECT_NE(job.output.find("_mean"), std::string::npos) << job.output;
  EXPECT_NE(job.output.find("SKIPPED           coll/mpi/alltoallv/float16/bytes:4092/ranks:2/oop"),
            std::string::npos)
      << job.output;
}

// Through a pipe (a CI log) a run that takes a while is not silent: a heartbeat line every
// --heartbeat seconds with the keys done, the time elapsed and the last key done.
TEST_F(QuietRun, WithoutATerminalAHeartbeatSaysHowFarItIs) {
  const json s = {{"schema", "fabricgate.suite/1"},
                  {"name", "slow"},
                  {"ranks", 2},
                  {"defaults", {{"repetitions", 12}, {"warmup", 1}, {"target_sample_ms", 250}}},
                  {"benchmarks", json::array({{{"family", "coll"},
                                               {"backend", "mpi"},
                                               {"ops", {"all_reduce"}},
                                               {"dtypes", {"float32"}},
                                               {"sizes", {{"list", {64, 4096, 4194304}}}}}})}};
  std::ofstream(dir_ / "slow.json") << s.dump(2);
  const auto job = run(false, "1", "slow.json");
  ASSERT_EQ(job.exit_code, 0) << job.output;
  EXPECT_EQ(job.output.find('\r'), std::string::npos) << job.output;
  const std::regex beat(
      R"(\nfabricgate: \[[1-3]/3\] 0m[0-9]{2}s elapsed, last done coll/mpi/all_reduce/float32/sum/bytes:[0-9]+/ranks:2/oop ok\n)");
  EXPECT_TRUE(std::regex_search(job.output, beat)) << job.output;
}

// On a terminal (script(1) gives fabricgate a pseudo-terminal): one progress line, rewritten in
// place with a carriage return per finished benchmark, read from records.jsonl; cleared before
// the verdict. No line per benchmark.
TEST_F(QuietRun, OnATerminalProgressIsOneLineRewrittenInPlace) {
  std::string command;
  for (const std::string& a :
       {std::string(FABRICGATE_CLI), std::string("run"), std::string("--suite"),
        (dir_ / "quiet.json").string(), std::string("--results-dir"), (dir_ / "results").string(),
        std::string("--lock"), (dir_ / "lock").string(), std::string("--bench"),
        std::string(FABRICGATE_BENCH), std::string("--platform"), std::string("test-box")}) {
    command += "'" + a + "' ";
  }
  const fs::path log = dir_ / "tty.log";
  const auto job = testing::run_job({"script", "-qec", command, log.string()}, 120);
  ASSERT_EQ(job.exit_code, 0) << job.output;
  const std::string tty = read(log);
  EXPECT_NE(tty.find("\r\033[Kfabricgate: ["), std::string::npos) << tty;
  EXPECT_NE(tty.find("/12] "), std::string::npos) << tty;  // of 12 registered benchmarks
  EXPECT_EQ(tty.find("fabricgate-bench: ["), std::string::npos)
      << "the bench's own lines stay off:\n"
      << tty;
  const std::size_t cleared = tty.rfind("\r\033[K");
  ASSERT_NE(cleared, std::string::npos);
  EXPECT_EQ(tty.compare(cleared + 4, 19, "fabricgate compare:"), 0) << tty.substr(cleared, 80);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
