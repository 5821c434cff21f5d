// `fabricgate run` end to end on this CPU machine: real mpirun ranks, the real bench, files on
// disk. Baseline from three runs and an A/A rerun that passes; P01 refused before launching; a rank
// killed with SIGKILL mid-run keeps the finished records and exits 3; a hung rank is ended by
// --timeout naming the benchmark; a second run waits for the runner lock and gives up clearly.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "core/json_file.hpp"
#include "mpi_job.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;
using testing::run_job;

class RunCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("fg-run-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path suite(const std::string& name, const json& benchmarks,
                 const json& extra = json::object()) {
    json s = {{"schema", "fabricgate.suite/1"},
              {"name", name},
              {"ranks", 2},
              {"defaults", {{"repetitions", 3}, {"warmup", 2}, {"target_sample_ms", 2}}},
              {"benchmarks", benchmarks}};
    s.update(extra);
    const fs::path p = dir_ / (name + ".json");
    std::ofstream(p) << s.dump(2);
    return p;
  }

  std::vector<std::string> run_args(const fs::path& suite_file,
                                    const char* bench = FABRICGATE_BENCH) {
    return {FABRICGATE_CLI,  "run",
            "--suite",       suite_file.string(),
            "--results-dir", (dir_ / "results").string(),
            "--lock",        (dir_ / "lock").string(),
            "--bench",       bench,
            "--platform",    "test-box"};
  }

  std::vector<fs::path> run_dirs() const {
    std::vector<fs::path> out;
    if (!fs::exists(dir_ / "results" / "test-box")) return out;
    for (const auto& e : fs::directory_iterator(dir_ / "results" / "test-box"))
      out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
  }

  fs::path dir_;
};

// Where run_args puts the --lock value (the refusal test replaces it).
std::size_t lock_value_index(const std::vector<std::string>& args) {
  return static_cast<std::size_t>(std::find(args.begin(), args.end(), "--lock") - args.begin()) + 1;
}

json mpi_entry() {
  return {{"family", "coll"},
          {"backend", "mpi"},
          {"ops", {"all_reduce", "broadcast"}},
          {"sizes", {{"list", {8, 65536}}}}};
}

TEST_F(RunCli, BaselineFromThreeRunsThenAnAaRerunPasses) {
  const auto s = suite("aa", json::array({mpi_entry()}));
  for (int i = 0; i < 3; ++i) {
    auto args = run_args(s);
    args.push_back("--no-compare");
    const auto job = run_job(args, 120);
    ASSERT_EQ(job.exit_code, 0) << job.output;
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));  // run ids have 1 s resolution
  }
  const auto dirs = run_dirs();
  ASSERT_EQ(dirs.size(), 3u);
  for (const auto& d : dirs) {
    const json run = load_json_file(d / "run.json", "fabricgate.run/1");
    EXPECT_TRUE(run["complete"].get<bool>());
    EXPECT_EQ(run["benchmarks"].size(), 4u);
    EXPECT_EQ(run["ranks"].size(), 2u);  // P01 evidence: one line per rank
    EXPECT_EQ(run["launch"]["launcher"], "mpirun");
  }
  std::vector<std::string> create = {FABRICGATE_CLI, "baseline", "create", "--out",
                                     (dir_ / "b.json").string()};
  for (const auto& d : dirs) {
    create.push_back("--from");
    create.push_back(d.string());
  }
  const auto made = run_job(create, 60);
  ASSERT_EQ(made.exit_code, 0) << made.output;
  // Two ranks on shared CI cores swing by 2x between launches: this test is about the plumbing,
  // so the baseline gets a wide band (a real CPU baseline does the same, see results/).
  json b = load_json_file(dir_ / "b.json", "fabricgate.baseline/3");
  b["tolerance_policy"]["max_band"] = 0.95;
  for (auto& c : b["tolerance_policy"]["size_classes"]) c["tolerance"] = 0.9;
  write_json_atomically(dir_ / "b.json", b);

  auto args = run_args(s);
  args.insert(args.end(), {"--baseline", (dir_ / "b.json").string()});
  const auto aa = run_job(args, 120);
  EXPECT_EQ(aa.exit_code, 0) << aa.output;
  EXPECT_NE(aa.output.find("PASS"), std::string::npos) << aa.output;
  EXPECT_TRUE(fs::exists(run_dirs().back() / "report.md"));
  EXPECT_TRUE(fs::exists(run_dirs().back() / "junit.xml"));
}

// Remote ranks see only what mpirun forwards: Open MPI's own lower-case parameter names too.
TEST_F(RunCli, LowerCaseOpenMpiParametersAreForwardedToEveryRank) {
  const auto s = suite("forward", json::array({mpi_entry()}));
  ::setenv("OMPI_MCA_btl", "self,vader", 1);
  const auto job = run_job(run_args(s), 120);
  ::unsetenv("OMPI_MCA_btl");
  ASSERT_EQ(job.exit_code, 0) << job.output;
  ASSERT_EQ(run_dirs().size(), 1u);
  const json launch = load_json_file(run_dirs().front() / "launch.json");
  const auto& argv = launch.at("argv");
  bool forwarded = false;
  for (std::size_t i = 0; i + 1 < argv.size(); ++i) {
    forwarded = forwarded ||
                (argv[i] == "-x" && argv[i + 1].get<std::string>().rfind("OMPI_MCA_btl", 0) == 0);
  }
  EXPECT_TRUE(forwarded) << launch.dump();
}

// GPU copy fixtures launch kernels; beside NCCL benchmarks they make all_gather/reduce_scatter
// vary between runs (docs/DESIGN.md, "The data check"). The run goes ahead, with a warning that
// names the entries. (On this CPU machine both kinds skip, so the run itself is quick.)
TEST_F(RunCli, SuiteMixingGpuCopyFixturesWithNcclIsWarnedAbout) {
  const json nccl = {{"family", "coll"},
                     {"backend", "nccl"},
                     {"ops", {"all_gather"}},
                     {"sizes", {{"list", {1048576}}}}};
  const json devcopy = {
      {"family", "devcopy"}, {"directions", {"h2d"}}, {"sizes", {{"list", {1048576}}}}};
  auto args = run_args(suite("mixed", json::array({mpi_entry(), nccl, devcopy})));
  args.push_back("--no-compare");
  const auto job = run_job(args, 120);
  EXPECT_EQ(job.exit_code, 0) << job.output;
  EXPECT_NE(
      job.output.find(
          "warning: suite mixed runs GPU copy fixtures (/benchmarks/2) in the same process as "
          "NCCL benchmarks (/benchmarks/1)"),
      std::string::npos)
      << job.output;
  ASSERT_EQ(run_dirs().size(), 1u);
  EXPECT_TRUE(fs::exists(run_dirs().front() / "run.json"));
}

TEST_F(RunCli, TooFewRanksAreRefusedBeforeLaunchP01) {
  const auto s = suite("p01", json::array({mpi_entry()}), {{"min_ranks", 2}});
  auto args = run_args(s);
  args.insert(args.end(), {"--ranks", "1"});
  const auto job = run_job(args, 60);
  EXPECT_EQ(job.exit_code, 2) << job.output;
  EXPECT_NE(job.output.find("P01"), std::string::npos) << job.output;
  EXPECT_TRUE(run_dirs().empty());  // nothing measured, nothing written
}

// Bad input is refused before the runner lock file is made: `ab` made /tmp/fabricgate-runner.lock
// before it refused a file given as --baselines-dir, `calibrate` before it refused an unknown
// suite (exit 2 both times, but a file written). Run, ab and calibrate, each with its own --lock.
TEST_F(RunCli, BadInputIsRefusedBeforeTheLockFileIsMade) {
  const auto s = suite("refused", json::array({mpi_entry()}));
  const fs::path not_a_dir = dir_ / "baseline.json";
  std::ofstream(not_a_dir) << "{}";
  const std::string lock = (dir_ / "lock").string();
  const std::vector<std::vector<std::string>> commands = {
      {FABRICGATE_CLI, "run", "--suite", (dir_ / "no-such-suite.json").string(), "--lock", lock,
       "--results-dir", (dir_ / "results").string(), "--bench", FABRICGATE_BENCH},
      {FABRICGATE_CLI, "ab", "--suite", s.string(), "--baselines-dir", not_a_dir.string(), "--lock",
       lock, "--results-dir", (dir_ / "results").string(), "--bench", FABRICGATE_BENCH, "--a",
       "label=x", "--b", "label=y"},
      {FABRICGATE_CLI, "ab", "--suite", s.string(), "--baseline",
       (dir_ / "no-such-baseline.json").string(), "--lock", lock, "--results-dir",
       (dir_ / "results").string(), "--bench", FABRICGATE_BENCH, "--a", "label=x", "--b",
       "label=y"},
      {FABRICGATE_CLI, "calibrate", "--launches", "2", "--suite",
       (dir_ / "no-such-suite.json").string(), "--lock", lock, "--bench", FABRICGATE_BENCH}};
  for (const auto& args : commands) {
    const auto job = run_job(args, 60);
    EXPECT_EQ(job.exit_code, 2) << args[1] << ": " << job.output;
    EXPECT_FALSE(fs::exists(lock))
        << args[1] << " made its lock file before refusing: " << job.output;
    fs::remove(lock);
  }
  EXPECT_TRUE(run_dirs().empty());  // nothing measured
}

// Issue 58: a FABRICGATE_HOST_ID outside its pattern was dropped without a word, and the runner
// judged under the machine's own identity. Now it is an input error before anything runs.
TEST_F(RunCli, AnUnusableHostIdIsRefusedBeforeLaunch) {
  const auto s = suite("hostid", json::array({mpi_entry()}));
  for (const std::string& bad : {std::string("runner 7; rm"), std::string(100000, 'a'),
                                 std::string("gpu\x1b]0;owned\x07")}) {
    ::setenv("FABRICGATE_HOST_ID", bad.c_str(), 1);
    const auto job = run_job(run_args(s), 60);
    ::unsetenv("FABRICGATE_HOST_ID");
    EXPECT_EQ(job.exit_code, 2) << job.output.substr(0, 2000);
    EXPECT_NE(job.output.find("FABRICGATE_HOST_ID"), std::string::npos) << job.output;
    EXPECT_NE(job.output.find("1 to 64 letters"), std::string::npos) << job.output;
    EXPECT_EQ(job.output.find(bad), std::string::npos);  // not echoed
    EXPECT_EQ(job.output.find('\x1b'), std::string::npos);
    EXPECT_TRUE(run_dirs().empty());  // nothing measured, nothing written
  }
  ::setenv("FABRICGATE_HOST_ID", "ci-runner-07", 1);  // a usable one is taken
  const auto job = run_job(run_args(s), 120);
  ::unsetenv("FABRICGATE_HOST_ID");
  EXPECT_NE(job.exit_code, 2) << job.output;
}

// The state file that names a runner without DMI: present but unusable is refused before the
// launch, naming the file and what is wrong (issue 58), never replaced by the host name and CPU
// model every VM of an image shares. A missing one is made.
TEST_F(RunCli, AnUnusableHostIdFileIsRefusedBeforeLaunch) {
  std::string dmi;
  std::getline(std::ifstream("/sys/class/dmi/id/product_uuid"), dmi);
  if (!dmi.empty() && dmi.find_first_not_of("0-") != std::string::npos &&
      dmi != "03000200-0400-0500-0006-000700080009")
    GTEST_SKIP() << "this machine's DMI UUID names it: the state file is not read";
  const auto s = suite("hostfile", json::array({mpi_entry()}));
  const fs::path id = dir_ / "state" / "host-id";
  fs::create_directories(id.parent_path());
  ::setenv("FABRICGATE_HOST_ID_FILE", id.c_str(), 1);
  const auto refused = [&](const std::string& why) {
    const auto job = run_job(run_args(s), 60);
    EXPECT_EQ(job.exit_code, 2) << why << "\n" << job.output.substr(0, 2000);
    EXPECT_NE(job.output.find(id.string()), std::string::npos) << job.output;
    EXPECT_NE(job.output.find(why), std::string::npos) << job.output;
    EXPECT_TRUE(run_dirs().empty());  // nothing measured, nothing written
  };
  std::ofstream(id).close();
  refused("is empty");
  std::ofstream(id) << "not an id\n";
  refused("holds something other than 32 hex digits");
  fs::remove(id);
  fs::create_symlink(dir_ / "elsewhere", id);
  refused("is a symbolic link");
  fs::remove(id);
  fs::create_directory(id);
  refused("is a directory");
  fs::remove(id);
  const auto made = run_job(run_args(s), 120);  // absent: made, and the run goes on
  ::unsetenv("FABRICGATE_HOST_ID_FILE");
  EXPECT_NE(made.exit_code, 2) << made.output;
  std::string line;
  std::getline(std::ifstream(id), line);
  EXPECT_EQ(line.size(), 32u) << line;
}

TEST_F(RunCli, KilledRankKeepsFinishedRecordsAndExits3) {
  // Enough benchmarks that the run is still going when one rank is killed.
  json e = mpi_entry();
  e["ops"] = {"all_reduce", "all_gather", "reduce_scatter", "broadcast",
              "reduce",     "alltoall",   "sendrecv"};
  e["sizes"] = {{"min", 8}, {"max", "1M"}, {"factor", 2}};
  const auto s =
      suite("crash", json::array({e}),
            {{"defaults", {{"repetitions", 3}, {"warmup", 2}, {"target_sample_ms", 20}}}});
  const fs::path log = dir_ / "out.log";
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    auto args = run_args(s);
    args.push_back("--no-compare");
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  // Wait (bounded) until some benchmarks are finished, then SIGKILL one rank.
  pid_t victim = -1;
  for (int i = 0; i < 600 && victim < 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const auto dirs = run_dirs();
    if (dirs.empty()) continue;
    std::ifstream rec(dirs.back() / "records.jsonl");
    int finished = 0;
    for (std::string l; std::getline(rec, l);)
      finished += l.find("\"type\":\"benchmark\"") != std::string::npos;
    if (finished < 3) continue;
    for (const auto& p : fs::directory_iterator("/proc")) {
      std::ifstream cmd(p.path() / "cmdline");
      std::string c((std::istreambuf_iterator<char>(cmd)), std::istreambuf_iterator<char>());
      // A rank: its argv[0] is the bench (not mpirun, not the fabricgate CLI) and it writes here.
      if (c.rfind(FABRICGATE_BENCH, 0) == 0 && c.find(dir_.string()) != std::string::npos) {
        victim = std::stoi(p.path().filename());
        break;
      }
    }
  }
  ASSERT_GT(victim, 0) << "no rank found to kill";
  ::kill(victim, SIGKILL);
  int status = 0;
  for (int i = 0; i < 1200 && ::waitpid(pid, &status, WNOHANG) == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ASSERT_TRUE(WIFEXITED(status)) << "fabricgate run did not end after a rank died";
  EXPECT_EQ(WEXITSTATUS(status), 3);
  const json run = load_json_file(run_dirs().back() / "run.json", "fabricgate.run/1");
  EXPECT_FALSE(run["complete"].get<bool>());
  EXPECT_GE(run["benchmarks"].size(), 3u);  // what finished before the kill survives
  EXPECT_NE(run["incomplete_reason"].get<std::string>().find("fabricgate-bench"),
            std::string::npos);
  // compare still works on what exists and says the run is incomplete (exit 3).
  const auto cmp = run_job({FABRICGATE_CLI, "compare", run_dirs().back().string()}, 60);
  EXPECT_EQ(cmp.exit_code, 3) << cmp.output;
}

TEST_F(RunCli, HungRankIsEndedByTheTimeoutWhichNamesTheBenchmark) {
  const auto s = suite("hang", json::array({{{"family", "hang"}}}));
  auto args = run_args(s, FABRICGATE_BENCH_TESTING);
  args.insert(args.end(), {"--timeout", "8", "--no-compare"});
  // The test bench's own family, named for the suite check before the lock.
  args.insert(args.begin(), {"/usr/bin/env", "FABRICGATE_BENCH_FAMILIES=hang"});
  const auto t0 = std::chrono::steady_clock::now();
  const auto job = run_job(args, 120);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(60));
  EXPECT_EQ(job.exit_code, 3) << job.output;
  const json run = load_json_file(run_dirs().back() / "run.json", "fabricgate.run/1");
  EXPECT_FALSE(run["complete"].get<bool>());
  const std::string reason = run["incomplete_reason"];
  EXPECT_NE(reason.find("timed out"), std::string::npos) << reason;
  EXPECT_NE(reason.find("hang/stuck"), std::string::npos) << reason;
  ASSERT_EQ(run["benchmarks"].size(), 1u);
  EXPECT_EQ(run["benchmarks"][0]["key"], "hang/ok");
}

TEST_F(RunCli, SecondRunWaitsForTheRunnerLockThenGivesUp) {
  const auto s = suite("lock", json::array({mpi_entry()}));
  const int fd = ::open((dir_ / "lock").c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_EQ(::flock(fd, LOCK_EX), 0);  // another run holds the runner
  auto args = run_args(s);
  args.insert(args.end(), {"--lock-timeout", "1", "--no-compare"});
  const auto job = run_job(args, 60);
  ::close(fd);
  EXPECT_EQ(job.exit_code, 3) << job.output;
  EXPECT_NE(job.output.find("another fabricgate run holds"), std::string::npos) << job.output;
  EXPECT_TRUE(run_dirs().empty());  // nothing was measured while the other run held the lock
}

// --lock names a file the run writes its pid into. A symlink (to a baseline of ours), a hard
// link, a file that is not a lock, or a lock another user owns (the default lives in /tmp) is
// refused before anything is measured, exit 2 naming the file and --lock, and the file it
// points at keeps every byte (issue 52, round four high 8).
TEST_F(RunCli, ALockThatIsNotAPlainLockOfOursIsRefusedAndLeftAlone) {
  const auto s = suite("lock", json::array({mpi_entry()}));
  const fs::path precious = dir_ / "baseline.json";
  const std::string content(4096, 'b');
  std::ofstream(precious) << content;
  const std::size_t at = lock_value_index(run_args(s));
  ASSERT_LT(at, run_args(s).size());
  const auto refused = [&](const fs::path& lock, const std::string& why) {
    auto args = run_args(s);
    args[at] = lock.string();
    args.insert(args.end(), {"--lock-timeout", "1", "--no-compare"});
    const auto job = run_job(args, 60);
    EXPECT_EQ(job.exit_code, 2) << why << "\n" << job.output;
    EXPECT_NE(job.output.find(lock.string()), std::string::npos) << job.output;
    EXPECT_NE(job.output.find("--lock"), std::string::npos) << job.output;
    EXPECT_TRUE(run_dirs().empty()) << why;  // nothing measured
    std::ifstream in(precious);
    const std::string now((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(now, content) << why;  // not truncated
  };
  fs::create_symlink(precious, dir_ / "link.lock");
  refused(dir_ / "link.lock", "symlink");
  fs::create_hard_link(precious, dir_ / "hard.lock");
  refused(dir_ / "hard.lock", "hard link");
  fs::remove(dir_ / "hard.lock");
  refused(precious, "a file that holds something else");
  if (::geteuid() == 0) {  // as root: a lock another user planted
    const fs::path foreign = dir_ / "foreign.lock";
    std::ofstream(foreign) << "";
    ASSERT_EQ(::chown(foreign.c_str(), 65534, 65534), 0);
    auto args = run_args(s);
    args[at] = foreign.string();
    args.insert(args.end(), {"--lock-timeout", "1", "--no-compare"});
    const auto job = run_job(args, 60);
    EXPECT_EQ(job.exit_code, 2) << job.output;
    EXPECT_NE(job.output.find("belongs to uid 65534"), std::string::npos) << job.output;
  }
  // A stale lock of ours (an earlier run's pid) is still taken.
  std::ofstream(dir_ / "stale.lock") << "12345\n";
  auto args = run_args(s);
  args[at] = (dir_ / "stale.lock").string();
  args.insert(args.end(), {"--no-compare"});
  const auto ok = run_job(args, 120);
  EXPECT_EQ(ok.exit_code, 0) << ok.output;
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
