// A write stopped by SIGTERM, SIGINT or SIGHUP (a cancelled CI job) leaves no half-written
// temporary file: a real child process writes large files in a loop and is sent the signal
// while a temporary exists.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "core/json_file.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;

std::vector<std::string> temporaries(const fs::path& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.find(".tmp") != std::string::npos) out.push_back(name);
  }
  return out;
}

TEST(model_StopSignal, AStoppedWriteLeavesNoTemporaryFile) {
  for (const int sig : {SIGTERM, SIGINT, SIGHUP}) {
    const fs::path dir = fs::temp_directory_path() /
                         ("fg-stop-" + std::to_string(getpid()) + "-" + std::to_string(sig));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      const std::string big(48u << 20, 'x');  // long enough that the signal lands mid-write
      for (int i = 0; i < 200; ++i) write_file_atomically(dir / "run.json", big);
      _exit(0);
    }
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (temporaries(dir).empty() && std::chrono::steady_clock::now() < give_up)
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    const bool seen = !temporaries(dir).empty();
    kill(child, seen ? sig : SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(seen) << "no temporary seen";
    ASSERT_TRUE(WIFSIGNALED(status)) << "the writer ended before the signal";
    EXPECT_EQ(WTERMSIG(status), sig);  // ended by the signal, as before: only cleaned first
    const auto left = temporaries(dir);
    EXPECT_TRUE(left.empty()) << "signal " << sig << " left " << left.front();
    fs::remove_all(dir);
  }
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
