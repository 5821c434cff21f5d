// An import stopped by SIGTERM while it writes its run directory leaves neither its temporary
// directory nor a temporary run.json behind (a real child process, a real signal), and the
// temporary directory is named after the run, not the pid, so a later import cleans what a
// SIGKILL left.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "harness/import/imported_run.hpp"
#include "tests/unit/gate/gate_fixtures.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;

std::vector<std::string> leftovers(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.find(".importing") != std::string::npos || name.find(".tmp") != std::string::npos ||
        name.find(std::to_string(getpid())) != std::string::npos)
      out.push_back(name);
  }
  return out;
}

testing::json big_run() {
  std::vector<testing::json> results;
  for (std::uint64_t i = 0; i < 4000; ++i) {
    testing::ResultSpec s;
    s.bytes = 8 * (i + 1);
    s.time_us = testing::noisy(10.0 + static_cast<double>(i), 0.003, 5, static_cast<unsigned>(i));
    results.push_back(testing::make_result(s));
  }
  return testing::make_run(testing::RunSpec{}, results);
}

TEST(import_StopSignal, ASignalledImportLeavesNoTemporaryDirectory) {
  const fs::path root = testing::fresh_temp_dir("import-stop");
  const testing::json run = big_run();
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    for (int i = 0; i < 400; ++i)
      import::write_imported_run(root / ("run-" + std::to_string(i)), run);
    _exit(0);
  }
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  bool seen = false;
  while (!seen && std::chrono::steady_clock::now() < give_up) {
    for (const auto& e : fs::directory_iterator(root)) {
      if (e.path().filename().string().find(".importing") != std::string::npos) seen = true;
    }
    if (!seen) std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  kill(child, seen ? SIGTERM : SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(seen) << "no temporary directory seen";
  ASSERT_TRUE(WIFSIGNALED(status)) << "the import ended before the signal";
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  const auto left = leftovers(root);
  EXPECT_TRUE(left.empty()) << left.front();
}

TEST(import_StopSignal, ALaterImportRemovesWhatAKilledOneLeft) {
  const fs::path root = testing::fresh_temp_dir("import-stale");
  fs::create_directories(root / ".run-a.importing");  // as SIGKILL would leave it
  std::ofstream(root / ".run-a.importing" / "run.json") << "{";
  import::write_imported_run(root / "run-a", big_run());
  EXPECT_TRUE(fs::exists(root / "run-a" / "run.json"));
  EXPECT_TRUE(leftovers(root).empty()) << leftovers(root).front();
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
