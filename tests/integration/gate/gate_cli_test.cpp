// The real `fabricgate` binary on generated run directories: exit codes 0/1/2/3 and that nothing
// is overwritten on error.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <sstream>

#include "tests/integration/cli_runner.hpp"
#include "tests/unit/gate/gate_fixtures.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using testing::json;
namespace fs = std::filesystem;

using Result = testing::CliResult;
using testing::slurp;

class gate_GateCli : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = testing::fresh_temp_dir("gate-cli");
    for (unsigned i = 1; i <= 3; ++i)
      base_runs_.push_back(write("base-" + std::to_string(i), 1.0, i));
  }
  void TearDown() override { fs::remove_all(root_); }

  // A run of three sizes; `slowdown` scales the 64 MiB time (busbw drops by 1/slowdown).
  fs::path write(const std::string& id, double slowdown, unsigned seed, bool complete = true) {
    std::vector<json> results;
    for (const std::uint64_t bytes :
         {std::uint64_t{8192}, std::uint64_t{1} << 20, std::uint64_t{64} << 20}) {
      testing::ResultSpec s;
      s.bytes = bytes;
      const double t = 5.0 + static_cast<double>(bytes) / 2000.0;
      s.time_us = testing::noisy(bytes == (64u << 20) ? t * slowdown : t, 0.003, 5,
                                 seed * 7 + static_cast<unsigned>(bytes % 97));
      results.push_back(testing::make_result(s));
    }
    testing::RunSpec rs;
    rs.run_id = id;
    rs.complete = complete;
    return testing::write_run_dir(root_ / "results", testing::make_run(rs, results));
  }

  // `args` are split at spaces into an argument vector (no shell: the paths are made here and have
  // no spaces); stdout and stderr are kept apart.
  Result cli(const std::string& args) {
    std::vector<std::string> argv;
    std::istringstream words(args);
    for (std::string w; words >> w;) argv.push_back(w);
    return testing::run_fabricgate(argv);
  }

  std::string from_base() const {
    std::string s;
    for (const fs::path& p : base_runs_) s += " --from " + p.string();
    return s;
  }

  fs::path baseline_file() const { return root_ / "baselines" / "cpu-test-2c" / "cpu.json"; }

  Result create() {
    return cli("baseline create" + from_base() + " --baselines-dir " +
               (root_ / "baselines").string());
  }

  fs::path root_;
  std::vector<fs::path> base_runs_;
};

TEST_F(gate_GateCli, CreateThenPassThenRegression) {
  const Result created = create();
  ASSERT_EQ(created.code, 0) << created.out << created.err;
  EXPECT_NE(created.out.find("new baseline: 3 keys"), std::string::npos) << created.out;
  ASSERT_TRUE(fs::exists(baseline_file()));

  const std::string dir = " --baselines-dir " + (root_ / "baselines").string();
  const Result pass = cli("compare " + write("same", 1.0, 40).string() + dir);
  EXPECT_EQ(pass.code, 0) << pass.out << pass.err;
  EXPECT_NE(pass.out.find("PASS: 3 keys compared"), std::string::npos) << pass.out;

  const Result regression = cli("compare " + write("slow", 1.0 / 0.9, 41).string() + dir);
  EXPECT_EQ(regression.code, 1) << regression.out << regression.err;
  EXPECT_NE(regression.out.find("REGRESSION"), std::string::npos);
  EXPECT_NE(regression.out.find("64 MiB"), std::string::npos);

  const Result junit = cli("compare " + write("slow2", 1.0 / 0.9, 42).string() + dir +
                           " --format junit --out " + (root_ / "junit.xml").string());
  EXPECT_EQ(junit.code, 1);
  EXPECT_NE(slurp(root_ / "junit.xml").find("<failure type=\"REGRESSION\""), std::string::npos);

  // `report` renders and exits with the gate's code, like every command.
  const Result annotations = cli("report " + (root_ / "results/cpu-test-2c/slow").string() + dir +
                                 " --format annotations");
  EXPECT_EQ(annotations.code, 1) << annotations.err;
  EXPECT_NE(annotations.out.find("::error title=fabricgate REGRESSION::"), std::string::npos)
      << annotations.out;
}

TEST_F(gate_GateCli, BadInputIsExitTwoAndNamesTheField) {
  ASSERT_EQ(create().code, 0);
  const fs::path bad = root_ / "bad" / "run.json";
  fs::create_directories(bad.parent_path());
  json doc = json::parse(slurp(base_runs_[0] / "run.json"));
  doc["benchmarks"][0]["busbw_GBps"] = 1e7;
  std::ofstream(bad) << doc.dump();
  const Result r = cli("compare " + bad.string() + " --baseline " + baseline_file().string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("/benchmarks/0/busbw_GBps"), std::string::npos) << r.err;
  std::ofstream(bad) << "{\"schema\": \"fabricgate.run/1\",";  // truncated
  EXPECT_EQ(cli("compare " + bad.string()).code, 2);
}

TEST_F(gate_GateCli, NoBaselineExitsZeroAndSaysHowUnlessRequired) {
  const fs::path run = write("lonely", 1.0, 50);
  const std::string dir = " --baselines-dir " + (root_ / "none").string();
  const Result r = cli("compare " + run.string() + dir);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("fabricgate baseline create --from " + run.string()), std::string::npos)
      << r.out;
  EXPECT_EQ(cli("compare " + run.string() + dir + " --require-baseline").code, 2);
}

TEST_F(gate_GateCli, IncompleteRunExitsThree) {
  ASSERT_EQ(create().code, 0);
  const Result r = cli("compare " + write("partial", 1.0, 60, false).string() + " --baseline " +
                       baseline_file().string());
  EXPECT_EQ(r.code, 3) << r.out << r.err;
}

TEST_F(gate_GateCli, CreateWithTwoRunsWritesNothing) {
  const Result r = cli("baseline create --from " + base_runs_[0].string() + " --from " +
                       base_runs_[1].string() + " --out " + baseline_file().string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("at least 3 runs"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(baseline_file()));
}

TEST_F(gate_GateCli, UpdateWithABadRunLeavesTheBaselineUntouched) {
  ASSERT_EQ(create().code, 0);
  const std::string before = slurp(baseline_file());
  const fs::path broken = root_ / "broken";
  fs::create_directories(broken);
  std::ofstream(broken / "run.json") << "{\"schema\": \"fabricgate.run/1\", \"run_id\": \"../x\"}";
  const Result r =
      cli("baseline update --baseline " + baseline_file().string() + " --from " + broken.string() +
          " --from " + base_runs_[1].string() + " --from " + base_runs_[2].string());
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(slurp(baseline_file()), before);

  // A good update prints the diff with changed medians in %.
  const Result ok = cli("baseline update --baseline " + baseline_file().string() + " --from " +
                        write("u1", 1.2, 70).string() + " --from " + write("u2", 1.2, 71).string() +
                        " --from " + write("u3", 1.2, 72).string());
  EXPECT_EQ(ok.code, 0) << ok.err;
  EXPECT_NE(ok.out.find("changed medians"), std::string::npos) << ok.out;
  EXPECT_NE(ok.out.find("%)"), std::string::npos) << ok.out;
  EXPECT_NE(slurp(baseline_file()), before);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
