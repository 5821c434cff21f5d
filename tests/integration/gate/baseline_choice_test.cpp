// One baseline choice for reading and writing (issue 59 item 5), through the real `fabricgate`:
// `baseline create` from launches of a non-default scenario writes the file that `compare` of that
// scenario reads (<platform>/<suite>--<scenario>.json), not the suite's own; `baseline status
// --scenario` finds it; and every reader and writer refuses a file given as --baselines-dir (it
// was "no baseline yet" for create, status and compare --against: a typo passed ungated).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/integration/cli_runner.hpp"
#include "tests/unit/gate/gate_fixtures.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;
using testing::CliResult;
using testing::run_fabricgate;

const fs::path kGood = fs::path(FABRICGATE_SOURCE_DIR) / "tests/data/bad_inputs/good";

class gate_BaselineChoice : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = testing::fresh_temp_dir("baseline-choice");
    for (const char* name : {"run", "run2", "run3"}) {
      const fs::path to = root_ / "runs" / (std::string(name) + "-ring");
      fs::create_directories(to);
      fs::copy(kGood / name, to, fs::copy_options::recursive);
      nlohmann::json run = nlohmann::json::parse(std::ifstream(to / "run.json"));
      run["scenario"]["name"] = "algo:Ring";
      std::ofstream(to / "run.json") << run.dump(1);
      runs_.push_back(to);
    }
  }
  void TearDown() override { fs::remove_all(root_); }

  fs::path root_;
  std::vector<fs::path> runs_;
};

TEST_F(gate_BaselineChoice, AScenariosBaselineIsWrittenWhereItsRunsAreJudged) {
  const fs::path dir = root_ / "baselines";
  std::vector<std::string> create{"baseline", "create", "--baselines-dir", dir.string()};
  for (const fs::path& r : runs_) create.insert(create.end(), {"--from", r.string()});
  const CliResult made = run_fabricgate(create);
  ASSERT_EQ(made.code, 0) << made.out << made.err;
  const fs::path own = dir / "cpu-intel-xeon-c2" / "cpu--algo-Ring.json";
  EXPECT_TRUE(fs::exists(own)) << made.out;
  EXPECT_FALSE(fs::exists(dir / "cpu-intel-xeon-c2" / "cpu.json")) << made.out;

  const CliResult judged = run_fabricgate(
      {"compare", runs_[0].string(), "--baselines-dir", dir.string(), "--store", "none"});
  EXPECT_NE(judged.code, 2) << judged.out << judged.err;
  EXPECT_EQ(judged.out.find("NO BASELINE"), std::string::npos) << judged.out;
  EXPECT_EQ(judged.err.find("is gated only against a baseline of its own"), std::string::npos)
      << judged.err;

  const CliResult status =
      run_fabricgate({"baseline", "status", "--platform", "cpu-intel-xeon-c2", "--suite", "cpu",
                      "--scenario", "algo:Ring", "--baselines-dir", dir.string()});
  EXPECT_EQ(status.code, 0) << status.out << status.err;
}

TEST_F(gate_BaselineChoice, EveryReaderAndWriterRefusesAFileAsTheBaselinesDir) {
  const std::string file = (kGood / "baseline.json").string();
  const std::vector<std::vector<std::string>> commands{
      {"baseline", "create", "--from", runs_[0].string(), "--from", runs_[1].string(),
       "--baselines-dir", file},
      {"baseline", "status", "--platform", "cpu-intel-xeon-c2", "--suite", "cpu", "--baselines-dir",
       file},
      {"compare", runs_[0].string(), runs_[1].string(), "--against", runs_[2].string(),
       runs_[0].string(), "--baselines-dir", file},
      {"compare", runs_[0].string(), "--baselines-dir", file, "--store", "none"},
      {"ab", "--suite", (fs::path(FABRICGATE_SOURCE_DIR) / "suites" / "smoke-mpi.json").string(),
       "--min-pairs", "2", "--max-pairs", "2", "--baselines-dir", file, "--results-dir",
       (root_ / "ab").string(), "--lock", (root_ / "runner.lock").string(), "--a", "label=x", "--b",
       "label=y"}};  // its own lock file, so a regression shows here and leaves nothing in /tmp
  for (const std::vector<std::string>& c : commands) {
    const CliResult r = run_fabricgate(c);
    EXPECT_EQ(r.code, 2) << c[0] << " " << c[1] << ": " << r.out << r.err;
    EXPECT_NE((r.out + r.err).find("a directory of baselines (--baselines-dir)"), std::string::npos)
        << c[0] << " " << c[1] << ": " << r.out << r.err;
  }
  // ab refused before its first launch: nothing under its results directory, and before it took
  // its runner lock: no lock file made (it was, in /tmp by default, before the refusal).
  EXPECT_TRUE(!fs::exists(root_ / "ab") || fs::is_empty(root_ / "ab"));
  EXPECT_FALSE(fs::exists(root_ / "runner.lock"));
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
