// Every shipped suite registers the benchmarks listed in tests/data/suite-keys/<suite>.txt. The
// fixtures register themselves from static initialisers, so a build change (files merged into
// unity units, an OBJECT library turned into a static archive) can drop a family without a
// compile error; the cpu suite's 115 keys would then shrink in the user's baseline instead of
// here. After a deliberate change to a suite or a fixture, rewrite the lists with
// FABRICGATE_UPDATE_SUITE_KEYS=1: the test then writes them and fails, so the diff is reviewed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "mpi_job.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;

// The distinct non-empty lines, sorted.
std::vector<std::string> sorted_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
  return lines;
}

// The benchmark names of `--benchmark_list_tests` on two ranks (collectives need two): rank 0's
// list, from the file mpirun --output-filename writes for it (on the console the two ranks'
// lines interleave, even tagged, mid-line).
std::vector<std::string> listed_keys(const fs::path& suite) {
  const fs::path out = fs::temp_directory_path() / ("fg-suite-keys-" + std::to_string(::getpid()) +
                                                    "-" + suite.stem().string());
  fs::remove_all(out);
  std::vector<std::string> argv = testing::mpirun(
      2, {FABRICGATE_BENCH, "--suite", suite.string(), "--benchmark_list_tests=true"});
  argv.insert(argv.begin() + 1, {"--output-filename", out.string()});
  const testing::JobResult r = testing::run_job(argv, 120);
  EXPECT_FALSE(r.timed_out) << suite;
  EXPECT_EQ(r.exit_code, 0) << suite << "\n" << r.output.substr(0, 2000);
  std::string names;
  if (fs::exists(out)) {
    for (const auto& f : fs::recursive_directory_iterator(out)) {
      if (f.path().filename() == "stdout" && f.path().parent_path().filename() == "rank.0") {
        std::ifstream in(f.path());
        std::stringstream text;
        text << in.rdbuf();
        names = text.str();
      }
    }
  }
  fs::remove_all(out);
  EXPECT_FALSE(names.empty()) << "no rank.0/stdout under " << out;
  return sorted_lines(names);
}

TEST(SuiteKeys, EveryShippedSuiteRegistersItsListedBenchmarks) {
  const fs::path suites = fs::path(FABRICGATE_SOURCE_DIR) / "suites";
  const fs::path lists = fs::path(FABRICGATE_SOURCE_DIR) / "tests/data/suite-keys";
  const bool update = std::getenv("FABRICGATE_UPDATE_SUITE_KEYS") != nullptr;
  std::size_t checked = 0;
  for (const auto& entry : fs::directory_iterator(suites)) {
    if (entry.path().extension() != ".json") continue;
    const std::vector<std::string> keys = listed_keys(entry.path());
    const fs::path list = lists / (entry.path().stem().string() + ".txt");
    if (update) {
      fs::create_directories(lists);
      std::ofstream out(list);
      for (const std::string& k : keys) out << k << "\n";
      ADD_FAILURE() << "rewrote " << list << " (" << keys.size() << " keys): review the diff";
      continue;
    }
    std::ifstream in(list);
    ASSERT_TRUE(in) << list << " is missing: run with FABRICGATE_UPDATE_SUITE_KEYS=1";
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(keys, sorted_lines(text.str())) << entry.path().filename();
    ++checked;
  }
  if (!update) {
    EXPECT_GE(checked, 10u) << "the shipped suites were not found in " << suites;
  }
}

TEST(SuiteKeys, TheCpuSuiteRegisters115Keys) {
  const fs::path cpu = fs::path(FABRICGATE_SOURCE_DIR) / "suites/cpu.json";
  EXPECT_EQ(listed_keys(cpu).size(), 115u);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
