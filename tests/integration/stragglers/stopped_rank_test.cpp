// Hang forensics end to end: `fabricgate run` with real mpirun ranks; one rank is stopped with
// SIGSTOP after a few samples. The harness's --timeout ends the job; hang.json and the console
// name the stopped rank (its heartbeat went stale) and its host, the finished records are kept,
// the run exits 3, within the timeout plus 15 s of the stop.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include <fmt/format.h>

#include "core/json_file.hpp"
#include "tests/integration/cli_runner.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;

// The harness's --timeout counts from the bench's start; a stopped heartbeat is stale after 5 s.
constexpr int kTimeoutSeconds = 25;

// The state letter of /proc/<pid>/stat once it is 'T' (stopped), or the last one seen after 2 s
// (the stop is asynchronous); '?' when unreadable.
char process_state(pid_t pid) {
  char state = '?';
  for (int i = 0; i < 40 && state != 'T'; ++i) {
    if (i > 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    const std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto close = stat.rfind(')');
    if (close == std::string::npos || close + 2 >= stat.size()) return '?';
    state = stat[close + 2];
  }
  return state;
}

fs::path run_dir_under(const fs::path& results) {
  const fs::path platform = results / "test-box";
  if (!fs::exists(platform)) return {};
  for (const auto& e : fs::directory_iterator(platform)) return e.path();
  return {};
}

TEST(StoppedRank, HangJsonNamesTheStoppedRankAndKeepsFinishedResults) {
  const fs::path dir = fs::temp_directory_path() / ("fg-stopped-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const json suite = {
      {"schema", "fabricgate.suite/1"},
      {"name", "stopped"},
      {"ranks", 2},
      // 3,000 samples of at least 20 ms: the suite cannot end before the timeout, so the stop
      // always lands mid-suite, however fast or busy the box (a stop after the last benchmark
      // would test the teardown instead).
      {"defaults", {{"repetitions", 150}, {"warmup", 2}, {"target_sample_ms", 20}}},
      {"benchmarks", json::array({{{"family", "coll"},
                                   {"backend", "mpi"},
                                   {"ops", {"all_reduce", "all_gather", "broadcast", "alltoall"}},
                                   {"sizes", {{"list", {8, 1024, 65536, 262144, 1048576}}}}}})}};
  std::ofstream(dir / "stopped.json") << suite.dump(2);
  const fs::path log = dir / "out.log";
  const auto forked_at = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    std::vector<std::string> args = {FABRICGATE_CLI,  "run",
                                     "--suite",       (dir / "stopped.json").string(),
                                     "--results-dir", (dir / "results").string(),
                                     "--lock",        (dir / "lock").string(),
                                     "--bench",       FABRICGATE_BENCH,
                                     "--platform",    "test-box",
                                     "--timeout",     std::to_string(kTimeoutSeconds),
                                     "--no-compare"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  // Wait (bounded) until rank 1 has finished a few samples of the second benchmark or later,
  // then stop it by the pid its own progress file gives.
  pid_t victim = -1;
  long long steps_at_stop = 0;
  for (int i = 0; i < 1200 && victim < 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const fs::path run = run_dir_under(dir / "results");
    if (run.empty() || !fs::exists(run / "ranks" / "1.progress.json")) continue;
    std::ifstream in(run / "ranks" / "1.progress.json");
    const json p = json::parse(in, nullptr, false);
    if (p.is_discarded() || p.value("steps", 0) < 14) continue;
    victim = p["pid"].get<pid_t>();
    steps_at_stop = p["steps"].get<long long>();
  }
  ASSERT_GT(victim, 0) << "rank 1 never reported progress";
  ASSERT_EQ(::kill(victim, SIGSTOP), 0);
  const auto stopped_at = std::chrono::steady_clock::now();
  const auto stop_after_s =
      std::chrono::duration_cast<std::chrono::seconds>(stopped_at - forked_at).count();
  EXPECT_EQ(process_state(victim), 'T') << "SIGSTOP did not stop rank 1 (pid " << victim << ")";
  // Open MPI's mpirun continues the stopped rank to deliver the harness's SIGTERM at the timeout
  // (it may beat once more then): the states below must come from before that.
  int status = 0;
  for (int i = 0; i < 2400 && ::waitpid(pid, &status, WNOHANG) == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const auto took = std::chrono::steady_clock::now() - stopped_at;
  ::kill(victim, SIGCONT);  // in case the job survived; it was SIGKILLed with its group
  const std::string out = testing::slurp(log);
  ASSERT_TRUE(WIFEXITED(status)) << out;
  EXPECT_EQ(WEXITSTATUS(status), 3) << out;
  EXPECT_LE(took, std::chrono::seconds(kTimeoutSeconds + 15));
  const fs::path run = run_dir_under(dir / "results");
  const json hang = load_json_file(run / "hang.json", "fabricgate.hang/1");
  const std::string when =
      fmt::format("stopped {} s after the start at step {}\n", stop_after_s, steps_at_stop);
  ASSERT_EQ(hang["did_not_reach"], json::array({1})) << when << hang.dump(2);
  EXPECT_EQ(hang["ranks"][1]["state"], "not responding") << when << hang.dump(2);
  EXPECT_EQ(hang["ranks"][0]["state"], "waiting") << when << hang.dump(2);
  EXPECT_FALSE(hang["ranks"][1]["key"].get<std::string>().empty());
  EXPECT_FALSE(hang["ranks"][1]["finished"].get<bool>());  // stopped mid-suite, not in teardown
  EXPECT_TRUE(hang["ncclras"].contains("captured"));
  if (!hang["ncclras"]["captured"].get<bool>()) {
    EXPECT_FALSE(hang["ncclras"]["reason"].get<std::string>().empty());
  }
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  EXPECT_NE(out.find(std::string("rank 1 on host ") + host + " did not reach the collective"),
            std::string::npos)
      << out;
  const json record = load_json_file(run / "run.json", "fabricgate.run/1");
  EXPECT_FALSE(record["complete"].get<bool>());
  EXPECT_GE(record["benchmarks"].size(), 1u);  // finished before the stop: kept
  // The console names why the run is incomplete (run.json's reason), not only "(incomplete)".
  const std::string reason = record["incomplete_reason"].get<std::string>();
  ASSERT_FALSE(reason.empty());
  EXPECT_NE(out.find("(incomplete: " + reason.substr(0, 60)), std::string::npos) << out;
  fs::remove_all(dir);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
