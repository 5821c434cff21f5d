// `fabricgate ab` end to end on this CPU machine: real mpirun ranks, the real bench, files on disk.
// MPI host collectives over shared memory (vader) vs TCP on lo, and libfabric shm vs tcp through
// the "env" provider (FI_PROVIDER), must FAIL; the same configuration on both sides must PASS;
// bad specs are refused before anything runs (exit 2); nccl=PATH is verified against the library
// each rank really loaded; the sequential design stops at the first look once TCP has failed;
// wrap=CMD puts the command before the bench on the launcher's line. Short suites (two sizes, 5
// repetitions, 5 pairs): well under a minute each on 2 cores. Five pairs, not three: on a loaded
// 2-core runner a whole launch is now and then 20x slower, and with 25 samples per side one such
// launch cannot move the interval past the tolerance (with 9 it can). Traffic stays on lo.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/json_file.hpp"
#include "mpi_job.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;
using testing::run_job;

// Both sides of the MPI tests pin the point-to-point layer (ob1) so that only the byte transfer
// layer differs; TCP stays on the loopback interface.
const std::vector<std::string> kMpiShm = {"OMPI_MCA_pml=ob1", "OMPI_MCA_btl=self,vader",
                                          "label=shm"};
const std::vector<std::string> kMpiTcp = {"OMPI_MCA_pml=ob1", "OMPI_MCA_btl=self,tcp",
                                          "OMPI_MCA_btl_tcp_if_include=lo", "label=tcp"};
// The gate's verdicts are the subject here, not the CPU machine's noise: one tolerance for every
// key, wide enough for an A/A on shared CI cores (the CPU platform baseline uses 60-70 %), and
// narrow enough that a 3x slower transport fails.
const char* kTolerance = "0.5";

class AbCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("fg-ab-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path suite(const std::string& name, const json& benchmarks) {
    const json s = {{"schema", "fabricgate.suite/1"},
                    {"name", name},
                    {"ranks", 2},
                    {"min_ranks", 2},
                    {"defaults", {{"repetitions", 5}, {"warmup", 2}, {"target_sample_ms", 3}}},
                    {"benchmarks", benchmarks}};
    const fs::path p = dir_ / (name + ".json");
    std::ofstream(p) << s.dump(2);
    return p;
  }

  std::vector<std::string> ab_args(const fs::path& suite_file, const std::vector<std::string>& a,
                                   const std::vector<std::string>& b,
                                   const std::string& pairs = "5") {
    std::vector<std::string> args = {FABRICGATE_CLI,  "ab",
                                     "--suite",       suite_file.string(),
                                     "--pairs",       pairs,
                                     "--tolerance",   kTolerance,
                                     "--results-dir", (dir_ / "results").string(),
                                     "--lock",        (dir_ / "lock").string(),
                                     "--bench",       FABRICGATE_BENCH,
                                     "--platform",    "test-box"};
    for (const auto& item : a) args.insert(args.end(), {"--a", item});
    for (const auto& item : b) args.insert(args.end(), {"--b", item});
    return args;
  }

  // The one A/B directory under results/test-box/.
  fs::path ab_dir() const {
    std::vector<fs::path> dirs;
    if (fs::exists(dir_ / "results" / "test-box")) {
      for (const auto& e : fs::directory_iterator(dir_ / "results" / "test-box"))
        dirs.push_back(e.path());
    }
    return dirs.size() == 1 ? dirs.front() : fs::path();
  }

  json ab_json() const { return load_json_file(ab_dir() / "ab.json", "fabricgate.ab/2"); }

  fs::path dir_;
};

// Latency sizes: loopback TCP costs several microseconds per message where shared memory costs a
// fraction of one (about 14x for MPI, 5x for libfabric ping-pong on the CI machine), a difference
// that survives a loaded 2-core runner; megabyte transfers there swing by 100x between samples.
json mpi_entry() {
  return {{"family", "coll"},
          {"backend", "mpi"},
          {"ops", {"all_reduce"}},
          {"sizes", {{"list", {8, 512}}}}};
}

json libfabric_entry() {
  return {{"family", "rdma"},    {"backend", "libfabric"},        {"providers", {"env"}},
          {"ops", {"pingpong"}}, {"sizes", {{"list", {8, 512}}}}, {"iterations", 20},
          {"timeout_s", 30}};
}

// Every launch directory exists with a complete run.json, in the interleaved order's names.
void expect_interleaved_launches(const json& ab, const fs::path& dir, int pairs) {
  ASSERT_EQ(ab["launches"].size(), static_cast<std::size_t>(2 * pairs)) << ab.dump(2);
  for (int p = 1; p <= pairs; ++p) {
    for (const std::string side : {"a", "b"}) {
      const json& l = ab["launches"][static_cast<std::size_t>(2 * (p - 1) + (side == "b"))];
      EXPECT_EQ(l["name"], side + "-" + std::to_string(p));
      EXPECT_TRUE(l["complete"].get<bool>());
      const json run =
          load_json_file(dir / (side + "-" + std::to_string(p)) / "run.json", "fabricgate.run/1");
      EXPECT_TRUE(run["complete"].get<bool>());
    }
  }
  EXPECT_EQ(ab["pairs_compared"].size(), static_cast<std::size_t>(pairs));
}

TEST_F(AbCli, MpiSharedMemoryVsTcpFails) {
  const auto s = suite("ab-mpi", json::array({mpi_entry()}));
  const auto job = run_job(ab_args(s, kMpiShm, kMpiTcp), 120);
  // Never a pass. On a runner so loaded that some of shared memory's own launches are 1000x
  // slower (seen with three builds on the 2-core box: 8 B all_reduce 0.6 us x3 and 20 ms x2), A
  // itself is on two levels and the A/B is not decided (exit 3, TWO-STATES): said, not passed.
  ASSERT_TRUE(job.exit_code == 1 || job.exit_code == 3) << job.output;
  const json ab = ab_json();
  expect_interleaved_launches(ab, ab_dir(), 5);
  EXPECT_EQ(ab["keys"].size(), 2u);
  if (job.exit_code == 3) {
    for (const auto& k : ab["keys"]) {
      EXPECT_NE(k["verdict"], "PASS") << k.dump(2);
      EXPECT_FALSE(k["levels_a"].is_null()) << "not decided without A on two levels: " << k.dump(2);
    }
    GTEST_SKIP() << "runner too loaded to judge (A on two levels): " << ab["headline"];
  }
  EXPECT_EQ(ab["keys"][0]["verdict"], "FAIL") << ab["keys"].dump(2);
  EXPECT_LT(ab["keys"][0]["performance"]["high"].get<double>(), 0.5);
  bool btl_listed = false;
  for (const auto& c : ab["changes"])
    btl_listed = btl_listed || (c["what"] == "OMPI_MCA_btl" && c["b"] == "self,tcp");
  EXPECT_TRUE(btl_listed) << ab["changes"].dump();
  // The side's variables reached the ranks through the launcher (-x) and are recorded per launch.
  const json run_b = load_json_file(ab_dir() / "b-1" / "run.json", "fabricgate.run/1");
  EXPECT_EQ(run_b["launch"]["extra_env"]["OMPI_MCA_btl"], "self,tcp");
  EXPECT_NE(job.output.find("FAIL"), std::string::npos);
  EXPECT_TRUE(fs::exists(ab_dir() / "ab.md"));
}

// The job exports a fall-back to TCP (as a changed CI image would); side A unset=OMPI_MCA_btl runs
// without it (Open MPI's default: shared memory), side B as the job is. The command the
// RUNNER-DIFFERS reason prints (runner_split.cpp) runs as printed: B is the slower side.
TEST_F(AbCli, UnsetOnOneSideRunsItWithoutTheJobsSetting) {
  const auto s = suite("ab-unset", json::array({mpi_entry()}));
  std::vector<std::string> args = {"env", "OMPI_MCA_btl=self,tcp", "OMPI_MCA_btl_tcp_if_include=lo",
                                   "OMPI_MCA_pml=ob1"};
  const auto ab = ab_args(s, {"unset=OMPI_MCA_btl", "label=baseline"}, {"label=job"});
  args.insert(args.end(), ab.begin(), ab.end());
  const auto job = run_job(args, 120);
  ASSERT_TRUE(job.exit_code == 1 || job.exit_code == 3) << job.output;
  const json doc = ab_json();
  bool listed = false;
  for (const auto& c : doc["changes"])
    listed = listed || (c["what"] == "OMPI_MCA_btl" && c["a"] == "(unset)" &&
                        c["b"] == "(not set by the spec)");
  EXPECT_TRUE(listed) << doc["changes"].dump();
  const json run_a = load_json_file(ab_dir() / "a-1" / "run.json", "fabricgate.run/1");
  EXPECT_EQ(run_a["launch"]["extra_env_unset"], json::array({"OMPI_MCA_btl"}));
  const json run_b = load_json_file(ab_dir() / "b-1" / "run.json", "fabricgate.run/1");
  EXPECT_EQ(run_b["launch"]["extra_env_unset"], json::array());
  if (job.exit_code == 3) GTEST_SKIP() << "runner too loaded to judge: " << doc["headline"];
  EXPECT_EQ(doc["keys"][0]["verdict"], "FAIL") << doc["keys"].dump(2);
  EXPECT_LT(doc["keys"][0]["performance"]["high"].get<double>(), 0.5);
}

// An A/A never fails. It passes when every key's interval lies inside the tolerance; on a loaded
// 2-core runner a launch is now and then 20x slower, and then a key may stay UNDECIDED (exit 3):
// not decided is said, never called a pass. The sequential design (3..8 pairs) adds pairs for it.
TEST_F(AbCli, MpiSameConfigurationNeverFails) {
  const auto s = suite("aa-mpi", json::array({mpi_entry()}));
  auto args = ab_args(s, kMpiShm, kMpiShm);
  args.erase(args.begin() + 4, args.begin() + 6);  // drop --pairs N
  args.insert(args.end(), {"--min-pairs", "3", "--max-pairs", "8"});
  const auto job = run_job(args, 240);
  ASSERT_TRUE(job.exit_code == 0 || job.exit_code == 3) << job.output;
  const json ab = ab_json();
  const int pairs = static_cast<int>(ab["pairs_compared"].size());
  expect_interleaved_launches(ab, ab_dir(), pairs);
  bool open = false;
  for (const auto& k : ab["keys"]) {
    EXPECT_FALSE(k["fails_gate"].get<bool>()) << k.dump(2);
    if (job.exit_code == 0) {
      EXPECT_EQ(k["verdict"], "PASS") << k.dump(2);
    }
    open = open || k["verdict"] == "UNDECIDED";
  }
  // Pairs are added while a key is open, and only then.
  EXPECT_EQ(ab["decided"].get<bool>(), !open) << ab["stop_reason"];
  if (open) {
    EXPECT_EQ(pairs, 8) << ab["stop_reason"];
  }
  EXPECT_EQ(ab["changes"].size(), 0u) << ab["changes"].dump();
  // A log a person reads: one line per pair with the running decision (the bench's progress and
  // table stay in each launch's directory), the verdict table after the last pair, the verdict
  // last of all.
  std::size_t pair_lines = 0;
  std::istringstream lines(job.output);
  for (std::string line; std::getline(lines, line);)
    pair_lines += line.rfind("fabricgate ab: pair ", 0) == 0 ? 1 : 0;
  EXPECT_EQ(pair_lines, static_cast<std::size_t>(pairs)) << job.output;
  EXPECT_LT(std::count(job.output.begin(), job.output.end(), '\n'), 45) << job.output;
  const std::size_t last_pair =
      job.output.find("fabricgate ab: pair " + std::to_string(pairs) + " of 3..8");
  ASSERT_NE(last_pair, std::string::npos) << job.output;
  EXPECT_GT(job.output.find("VERDICT"), last_pair) << job.output;
  EXPECT_GT(job.output.rfind(job.exit_code == 0 ? "PASS: 2 of 2 keys" : "UNDECIDED: "),
            job.output.find("VERDICT"))
      << job.output;
  EXPECT_TRUE(fs::exists(ab_dir() / ("b-" + std::to_string(pairs)) / "bench-console.txt"));
}

// --bisect over a ladder of six: candidates 4..6 put MPI on TCP. The search probes the last (bad),
// then halves: 3 (good), 5 (bad), 4 (bad) -> first bad 4, in ceil(log2 6) + 1 = 4 A/Bs, each
// candidate once. Every probe is a sequential A/B (3..8 pairs) with its own directory; at 80 %
// family confidence, so that the good probes (A/As) are decided on a loaded 2-core runner too
// (an undecided probe stops the search, exit 3, rather than guess).
TEST_F(AbCli, BisectFindsTheFirstCandidateOnTcp) {
  const auto s = suite("bisect-mpi", json::array({mpi_entry()}));
  auto args = ab_args(s, kMpiShm, {"OMPI_MCA_pml=ob1", "OMPI_MCA_btl_tcp_if_include=lo"});
  args.erase(args.begin() + 4, args.begin() + 6);  // drop --pairs N
  args.insert(args.end(),
              {"--min-pairs", "3", "--max-pairs", "8", "--confidence", "0.8", "--bisect"});
  for (int i = 1; i <= 6; ++i)
    args.insert(args.end(),
                {"--candidate", i >= 4 ? "OMPI_MCA_btl=self,tcp" : "OMPI_MCA_btl=self,vader"});
  const auto job = run_job(args, 600);
  ASSERT_EQ(job.exit_code, 1) << job.output;
  EXPECT_NE(job.output.find("first bad candidate: 4 of 6 (4 A/Bs, at most 4)"), std::string::npos)
      << job.output;
  std::vector<fs::path> bisect_files;
  std::size_t ab_dirs = 0;
  for (const auto& e : fs::directory_iterator(dir_ / "results" / "test-box")) {
    if (e.path().string().ends_with("-bisect.json"))
      bisect_files.push_back(e.path());
    else if (e.is_directory())
      ++ab_dirs;
  }
  ASSERT_EQ(bisect_files.size(), 1u);
  EXPECT_EQ(ab_dirs, 4u);  // one A/B per probe, none repeated
  const json b = load_json_file(bisect_files.front(), "fabricgate.ab-bisect/1");
  EXPECT_EQ(b["first_bad"], 4);
  std::vector<int> order;
  for (const auto& p : b["probes"]) order.push_back(p["candidate"].get<int>());
  EXPECT_EQ(order, (std::vector<int>{6, 3, 5, 4})) << b.dump(2);
}

#if FABRICGATE_TEST_LIBFABRIC
// MPI pinned to shared memory on both sides, so FI_PROVIDER only steers the libfabric benchmarks.
const std::vector<std::string> kMpiPinned = {"OMPI_MCA_pml=ob1", "OMPI_MCA_btl=self,vader"};

std::vector<std::string> with(std::vector<std::string> items,
                              const std::vector<std::string>& more) {
  items.insert(items.end(), more.begin(), more.end());
  return items;
}

TEST_F(AbCli, LibfabricShmVsTcpFails) {
  const auto s = suite("ab-fi", json::array({libfabric_entry()}));
  const auto job = run_job(ab_args(s, with(kMpiPinned, {"FI_PROVIDER=shm"}),
                                   with(kMpiPinned, {"FI_PROVIDER=tcp", "FI_TCP_IFACE=lo"})),
                           120);
  ASSERT_EQ(job.exit_code, 1) << job.output;
  const json ab = ab_json();
  expect_interleaved_launches(ab, ab_dir(), 5);
  ASSERT_EQ(ab["keys"].size(), 2u) << ab["keys"].dump(2);
  int failed = 0;
  for (const auto& k : ab["keys"]) {
    EXPECT_EQ(k["key"].get<std::string>().rfind("rdma/libfabric/env/", 0), 0u) << k["key"];
    failed += k["verdict"] == "FAIL";
    // The provider each side really used is listed as a route change.
    ASSERT_FALSE(k["route_changes"].empty()) << k.dump(2);
    EXPECT_EQ(k["route_changes"][0]["what"], "provider");
    EXPECT_EQ(k["route_changes"][0]["a"], "shm");
    EXPECT_EQ(k["route_changes"][0]["b"].get<std::string>().rfind("tcp", 0), 0u)
        << k["route_changes"].dump();
  }
  EXPECT_GE(failed, 1) << ab["keys"].dump(2);
}

TEST_F(AbCli, LibfabricSameProviderPasses) {
  const auto s = suite("aa-fi", json::array({libfabric_entry()}));
  const auto side = with(kMpiPinned, {"FI_PROVIDER=shm"});
  const auto job = run_job(ab_args(s, side, side), 120);
  ASSERT_EQ(job.exit_code, 0) << job.output;
  const json ab = ab_json();
  ASSERT_EQ(ab["keys"].size(), 2u);
  for (const auto& k : ab["keys"]) {
    EXPECT_FALSE(k["fails_gate"].get<bool>()) << k.dump(2);
    EXPECT_TRUE(k["route_changes"].empty()) << k.dump(2);
  }
}
#endif

// ci/paired-check reads its sides from files a pull request may change. A line that would run
// code on every rank (LD_PRELOAD, PATH, LD_LIBRARY_PATH, a plugin path, an MPI agent) or name a
// program or library (wrap=, nccl=) is refused before anything runs, exit 2; --trust-files hands
// the same lines to ab's ordinary checks (issue 52, round five high 2).
TEST_F(AbCli, APairedCheckFileMayTuneTheFabricAndNothingElse) {
  const auto s = suite("paired", json::array({mpi_entry()}));
  const fs::path script = fs::path(FABRICGATE_SOURCE_DIR) / "ci" / "paired-check";
  const fs::path base = dir_ / "base.env";
  std::ofstream(base) << "# the base side\nNCCL_DEBUG=WARN\n";
  const auto check = [&](const std::string& line, bool trust) {
    const fs::path candidate = dir_ / "candidate.env";
    std::ofstream(candidate) << line << "\n";
    std::vector<std::string> args = {"env", std::string("FABRICGATE=") + FABRICGATE_CLI, "bash",
                                     script.string()};
    if (trust) args.push_back("--trust-files");
    args.insert(args.end(),
                {base.string(), candidate.string(), s.string(), "--pairs", "5", "--results-dir",
                 (dir_ / "results").string(), "--lock", (dir_ / "lock").string(), "--bench",
                 FABRICGATE_BENCH, "--platform", "test-box"});
    return run_job(args, 30);
  };
  for (const std::string line : {"LD_PRELOAD=/tmp/evil.so", "PATH=/tmp/evil:/usr/bin",
                                 "LD_LIBRARY_PATH=.", "NCCL_NET_PLUGIN=/tmp/evil.so",
                                 "FI_PROVIDER_PATH=/tmp", "wrap=/usr/bin/true", "nccl=/usr/lib"}) {
    const auto job = check(line, false);
    EXPECT_EQ(job.exit_code, 2) << line << "\n" << job.output;
    EXPECT_NE(job.output.find("--sides-from-file"), std::string::npos) << line << job.output;
    EXPECT_FALSE(fs::exists(dir_ / "results")) << line;  // nothing launched
  }
  // A refused line never echoes a token in its value (issue 58): named, value redacted.
  const std::string token = "ghp_" + std::string(36, 'A');
  for (const std::string& line :
       {"LD_PRELOAD=/tmp/evil.so?token=" + token, "NCCL_SOCKET_IFNAME=eth0;" + token}) {
    const auto job = check(line, false);
    EXPECT_EQ(job.exit_code, 2) << job.output;
    EXPECT_EQ(job.output.find(token), std::string::npos) << job.output;
    EXPECT_NE(job.output.find(line.substr(0, line.find('='))), std::string::npos) << job.output;
  }
  // A file saved with Windows line endings is refused saying so, not as a bad value.
  const auto crlf = check("NCCL_DEBUG=WARN\r", false);
  EXPECT_EQ(crlf.exit_code, 2) << crlf.output;
  EXPECT_NE(crlf.output.find("Windows (CRLF) line endings"), std::string::npos) << crlf.output;
  // With --trust-files, wrap= reaches ab's own check (here: a program that does not exist).
  const auto trusted = check("wrap=no-such-wrapper-fg", true);
  EXPECT_EQ(trusted.exit_code, 2) << trusted.output;
  EXPECT_EQ(trusted.output.find("--sides-from-file"), std::string::npos) << trusted.output;
  EXPECT_NE(trusted.output.find("no-such-wrapper-fg"), std::string::npos) << trusted.output;
}

TEST_F(AbCli, BadSpecsAreRefusedBeforeAnythingRuns) {
  const auto s = suite("bad", json::array({mpi_entry()}));
  for (const std::vector<std::string>& b :
       std::vector<std::vector<std::string>>{{"nccl=/nonexistent"},
                                             {"NCCL_ALGO=Ring;reboot"},
                                             {"NCCL_ALGO=$(id)"},
                                             {"lowercase=1"},
                                             {"wrap=no-such-wrapper-fg -c 0"},
                                             {"wrap=taskset -c 0;id"},
                                             {"unset=lower-case"},
                                             {"unset=NCCL_ALGO", "NCCL_ALGO=Ring"}}) {
    const auto job = run_job(ab_args(s, {}, b), 30);
    EXPECT_EQ(job.exit_code, 2) << b.front() << "\n" << job.output;
    EXPECT_NE(job.output.find("--b"), std::string::npos) << job.output;
  }
  // A schedule that cannot run is refused the same way.
  auto args = ab_args(s, {}, {});
  args.erase(args.begin() + 4, args.begin() + 6);  // drop --pairs N
  args.insert(args.end(), {"--min-pairs", "5", "--max-pairs", "3"});
  const auto job = run_job(args, 30);
  EXPECT_EQ(job.exit_code, 2) << job.output;
  EXPECT_NE(job.output.find("--max-pairs"), std::string::npos) << job.output;
  EXPECT_FALSE(fs::exists(dir_ / "results"));  // nothing launched, nothing written
}

// The sequential design on shared memory vs TCP: never a pass; the series stops at the first look
// that decides every key (TCP's latencies usually fail at pair 3, well before the maximum), and
// each key's pairs_needed is the look that decided it. On a runner so loaded that launches vary
// 1000x, a key may stay open to the maximum: then exit 3, said plainly.
TEST_F(AbCli, SequentialDesignStopsAtTheFirstLookThatDecides) {
  const auto s = suite("seq-mpi", json::array({mpi_entry()}));
  auto args = ab_args(s, kMpiShm, kMpiTcp);
  args.erase(args.begin() + 4, args.begin() + 6);  // drop --pairs N
  args.insert(args.end(), {"--min-pairs", "3", "--max-pairs", "8"});
  const auto job = run_job(args, 240);
  ASSERT_TRUE(job.exit_code == 1 || job.exit_code == 3) << job.output;
  const json ab = ab_json();
  EXPECT_EQ(ab["min_pairs"], 3);
  EXPECT_EQ(ab["max_pairs"], 8);
  const int pairs = static_cast<int>(ab["pairs_compared"].size());
  expect_interleaved_launches(ab, ab_dir(), pairs);
  int last_decision = 0;
  bool any_fail = false;
  for (const auto& k : ab["keys"]) {
    EXPECT_NE(k["verdict"], "PASS") << k.dump(2);
    const int needed = k["pairs_needed"].get<int>();
    EXPECT_GE(needed, 3) << k.dump(2);
    EXPECT_LE(needed, pairs) << k.dump(2);
    last_decision = std::max(last_decision, needed);
    any_fail = any_fail || k["fails_gate"].get<bool>();
  }
  EXPECT_EQ(job.exit_code, any_fail ? 1 : 3) << job.output;
  if (ab["decided"].get<bool>()) {
    EXPECT_EQ(pairs, last_decision) << "the series went on after every key was decided";
    EXPECT_NE(job.output.find("stopped: every key decided after " + std::to_string(pairs)),
              std::string::npos)
        << job.output;
  } else {
    EXPECT_EQ(pairs, 8) << ab["stop_reason"];
  }
  EXPECT_NE(job.output.find("fabricgate ab: pair 3 of 3..8"), std::string::npos) << job.output;
}

// wrap=CMD: side B's ranks run under taskset (one CPU); the launcher's command line has it
// right before the bench, and the sides' difference names it.
TEST_F(AbCli, WrappedSideRunsItsRanksUnderTheCommand) {
  const auto s = suite("wrap-mpi", json::array({mpi_entry()}));
  const auto job =
      run_job(ab_args(s, kMpiShm,
                      {"OMPI_MCA_pml=ob1", "OMPI_MCA_btl=self,vader", "wrap=taskset -c 0"}, "1"),
              120);
  ASSERT_NE(job.exit_code, 2) << job.output;
  const json ab = ab_json();
  ASSERT_EQ(ab["pairs_compared"].size(), 1u) << job.output;
  ASSERT_EQ(ab["sides"]["b"]["wrap"].size(), 3u);
  EXPECT_EQ(ab["sides"]["b"]["wrap"][1], "-c");
  const std::string taskset = ab["sides"]["b"]["wrap"][0];
  EXPECT_EQ(taskset.front(), '/');
  bool listed = false;
  for (const auto& c : ab["changes"]) listed = listed || c["what"] == "wrap";
  EXPECT_TRUE(listed) << ab["changes"].dump();
  const json launch_b = load_json_file(ab_dir() / "b-1" / "launch.json");
  const auto argv = launch_b["argv"].get<std::vector<std::string>>();
  const auto at = std::find(argv.begin(), argv.end(), taskset);
  ASSERT_NE(at, argv.end()) << launch_b.dump(2);
  ASSERT_LT(at + 3, argv.end());
  EXPECT_EQ(*(at + 3), FABRICGATE_BENCH) << launch_b.dump(2);
  const json launch_a = load_json_file(ab_dir() / "a-1" / "launch.json");
  const auto argv_a = launch_a["argv"].get<std::vector<std::string>>();
  EXPECT_EQ(std::find(argv_a.begin(), argv_a.end(), taskset), argv_a.end());
}

// What a wrap= helper leaves behind (issue 58): one helper starts a background sleep that keeps
// the launch's output open, the other a setsid'd one that detaches. Before, the first made each
// launch wait the whole --timeout (the bench was then blamed for a hang) and the second outlived
// the A/B, loading every later launch. Now the launch ends within its grace after the ranks,
// both are killed and said, and none of them is left running.
TEST_F(AbCli, WhatAWrapHelperLeavesBehindIsEndedAndSaid) {
  const auto s = suite("wrap-left", json::array({mpi_entry()}));
  const auto helper = [&](const std::string& name, const std::string& background) {
    const fs::path p = dir_ / name;
    std::ofstream(p) << "#!/bin/sh\n" << background << "\nexec \"$@\"\n";
    fs::permissions(p, fs::perms::owner_all);
    return p.string();
  };
  const std::string holds = helper("holds-output.sh", "sleep 171 &");
  const std::string detaches =
      helper("detaches.sh", "setsid sleep 172 </dev/null >/dev/null 2>&1 &");
  for (const std::string& wrap : {holds, detaches}) {
    const auto start = std::chrono::steady_clock::now();
    const auto job = run_job(ab_args(s, kMpiShm, {"wrap=" + wrap}, "1"), 150);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_NE(job.exit_code, 2) << job.output;
    EXPECT_LT(seconds, 90.0) << wrap << "\n" << job.output;  // the grace, not the sleep
    EXPECT_NE(job.output.find("process(es) running after its ranks ended"), std::string::npos)
        << wrap << "\n"
        << job.output;
    EXPECT_NE(job.output.find(" sleep"), std::string::npos) << job.output;
    const auto left = run_job({"pgrep", "-f", "sleep 17[12]"}, 10);
    EXPECT_NE(left.exit_code, 0) << "still running: " << left.output;
    // The bench is not blamed: side B's launch is complete.
    const json run_b = load_json_file(ab_dir() / "b-1" / "run.json");
    EXPECT_TRUE(run_b["complete"].get<bool>()) << run_b.dump(2).substr(0, 2000);
    fs::remove_all(dir_ / "results");  // one A/B directory at a time (ab_dir)
  }
}

#if FABRICGATE_TEST_NCCL
// The bench links libnccl.so.2 even without a GPU, so the library verification runs here: a
// directory holding a hard link (or copy) of this machine's NCCL under another path must be what
// side B's ranks load; an LD_PRELOAD of the system copy makes B load something else: exit 2.
class AbNcclLibrary : public AbCli {
 protected:
  // A directory with this machine's libnccl.so.2 under another real path (hard link when the file
  // system allows, else a copy), so "B loaded it" cannot be confused with the default library.
  fs::path nccl_copy() {
    const fs::path lib = dir_ / "nccl-b" / "libnccl.so.2";
    fs::create_directories(lib.parent_path());
    std::error_code ec;
    fs::create_hard_link(system_nccl(), lib, ec);
    if (ec) fs::copy_file(system_nccl(), lib);
    return lib.parent_path();
  }
  // The library the bench loads by default, read from a plain A/A launch's run.json.
  static fs::path system_nccl_from(const json& run) {
    return run["launch"]["nccl_library"].get<std::string>();
  }
  fs::path system_nccl() {
    if (system_.empty()) {
      const auto s = suite("probe", json::array({mpi_entry()}));
      const auto job = run_job(ab_args(s, {}, {}, "1"), 120);
      // One A/A pair of 8-byte latencies may "fail" on a loaded runner's noise, or stay
      // undecided (3): only the library its run.json names is read here.
      EXPECT_NE(job.exit_code, 2) << job.output;
      system_ = system_nccl_from(load_json_file(ab_dir() / "a-1" / "run.json", "fabricgate.run/1"));
      fs::remove_all(dir_ / "results");
    }
    return system_;
  }
  fs::path system_;
};

TEST_F(AbNcclLibrary, SideBLoadsTheNamedLibraryAndTheReportSaysSo) {
  const fs::path nccl_dir = nccl_copy();
  const auto s = suite("ab-nccl-cpu", json::array({mpi_entry()}));
  const auto job = run_job(
      ab_args(s, {"OMPI_MCA_pml=ob1", "OMPI_MCA_btl=self,vader"},
              {"OMPI_MCA_pml=ob1", "OMPI_MCA_btl=self,vader", "nccl=" + nccl_dir.string()}, "1"),
      120);
  ASSERT_NE(job.exit_code, 2) << job.output;
  const json ab = ab_json();
  ASSERT_TRUE(ab["complete"].get<bool>()) << job.output;  // 3 here: undecided, not a crash
  const std::string loaded_b = ab["sides"]["b"]["loaded"]["nccl_libraries"][0];
  EXPECT_EQ(loaded_b, fs::canonical(nccl_dir / "libnccl.so.2").string());
  EXPECT_EQ(ab["sides"]["a"]["loaded"]["nccl_libraries"][0], system_nccl().string());
  bool listed = false;
  for (const auto& c : ab["changes"])
    listed = listed || (c["what"] == "NCCL library" && c["b"] == loaded_b);
  EXPECT_TRUE(listed) << ab["changes"].dump(2);
  // Every rank recorded what it loaded.
  const json run_b = load_json_file(ab_dir() / "b-1" / "run.json", "fabricgate.run/1");
  ASSERT_EQ(run_b["ranks"].size(), 2u);
  for (const auto& r : run_b["ranks"]) EXPECT_EQ(r["nccl_library"], loaded_b);
}

TEST_F(AbNcclLibrary, ASideThatLoadsAnotherLibraryIsRefused) {
  const fs::path nccl_dir = nccl_copy();
  const auto s = suite("ab-nccl-wrong", json::array({mpi_entry()}));
  const auto job = run_job(
      ab_args(s, {}, {"nccl=" + nccl_dir.string(), "LD_PRELOAD=" + system_nccl().string()}, "2"),
      120);
  EXPECT_EQ(job.exit_code, 2) << job.output;
  EXPECT_NE(job.output.find("the bench loaded " + system_nccl().string()), std::string::npos)
      << job.output;
  const json ab = ab_json();  // written before refusing: says why the A/B stopped
  EXPECT_NE(ab["incomplete_reason"].get<std::string>().find("stopped"), std::string::npos);
}
#endif

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
