// Confirm before fail, end to end: real mpirun ranks and the real bench. A baseline whose band
// one key cannot meet makes `fabricgate run` re-measure that key (only that key) in a fresh
// launch under confirm/, and the verdict says first result, confirmation and decision.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "core/json_file.hpp"
#include "mpi_job.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;
using testing::run_job;

const char* kKey = "coll/mpi/all_reduce/float32/sum/bytes:65536/ranks:2/oop";

class ConfirmCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("fg-confirm-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    const json s = {{"schema", "fabricgate.suite/1"},
                    {"name", "confirm"},
                    {"ranks", 2},
                    {"defaults", {{"repetitions", 3}, {"warmup", 2}, {"target_sample_ms", 2}}},
                    {"benchmarks", json::array({{{"family", "coll"},
                                                 {"backend", "mpi"},
                                                 {"ops", {"all_reduce", "broadcast"}},
                                                 {"sizes", {{"list", {8, 65536}}}}}})}};
    suite_ = dir_ / "confirm.json";
    std::ofstream(suite_) << s.dump(2);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<std::string> run_args() const {
    return {FABRICGATE_CLI,  "run",
            "--suite",       suite_.string(),
            "--results-dir", (dir_ / "results").string(),
            "--lock",        (dir_ / "lock").string(),
            "--bench",       FABRICGATE_BENCH,
            "--platform",    "test-box",
            "--confirm-gap", "1",  // the gap itself is not under test; keep the test short
            "--baseline",    (dir_ / "b.json").string(),
            "--report",      "json"};
  }

  fs::path newest_run() const {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(dir_ / "results" / "test-box"))
      out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out.back();
  }

  // Three launches -> baseline with wide floors (shared CI cores), then one key made impossible:
  // its launch medians say the all_reduce took 1/100 of what this machine needs, every time.
  void make_unmeetable_baseline() {
    std::vector<std::string> create = {FABRICGATE_CLI, "baseline", "create", "--out",
                                       (dir_ / "b.json").string()};
    for (int i = 0; i < 3; ++i) {
      auto args = run_args();
      args.resize(args.size() - 4);  // no --baseline / --report
      args.push_back("--no-compare");
      const auto job = run_job(args, 120);
      ASSERT_EQ(job.exit_code, 0) << job.output;
      create.push_back("--from");
      create.push_back(newest_run().string());
    }
    const auto made = run_job(create, 60);
    ASSERT_EQ(made.exit_code, 0) << made.output;
    json b = load_json_file(dir_ / "b.json", "fabricgate.baseline/3");
    b["tolerance_policy"]["max_band"] = 0.95;
    b["tolerance_policy"]["unstable_cv"] = 5.0;
    // ctest runs other MPI tests beside this one: their spinning ranks are CPU pressure, and the
    // verdict under test is the REGRESSION, not "runner busy".
    b["tolerance_policy"]["busy_cpu_pressure"] = 1.0;
    // Three launches of one sitting: no between-sitting term (left to the allowance, the key
    // would be UNMEASURED and not gated); the subject here is the confirmation.
    b["tolerance_policy"]["session_allowance"] = 0.0;
    for (auto& c : b["tolerance_policy"]["size_classes"]) c["tolerance"] = 0.9;
    // Three launches that agree (a band of ~0, so the 90 % floor applies) at 1/100 of the time.
    json& t = b["entries"][kKey]["time_us"];
    const double fast = t["median"].get<double>() / 100;
    t["run_medians"] = json::array({fast, fast * 1.001, fast * 0.999});
    t["median"] = fast;
    write_json_atomically(dir_ / "b.json", b);
  }

  fs::path dir_;
  fs::path suite_;
};

TEST_F(ConfirmCli, FailingKeyIsReMeasuredAloneAndTheVerdictShowsBothLaunches) {
  make_unmeetable_baseline();
  const auto job = run_job(run_args(), 180);
  EXPECT_EQ(job.exit_code, 1) << job.output;
  EXPECT_NE(job.output.find("confirmation launch 1"), std::string::npos) << job.output;
  EXPECT_NE(job.output.find("confirmation launch 2"), std::string::npos) << job.output;
  const fs::path run = newest_run();
  ASSERT_TRUE(fs::exists(run / "confirm" / "run.json")) << job.output;
  ASSERT_TRUE(fs::exists(run / "confirm-2" / "run.json")) << job.output;
  const json again = load_json_file(run / "confirm" / "run.json");
  const json c = load_json_file(run / "comparison.json");
  // Only the keys that failed the first launch were re-measured (on shared CI cores another key
  // may be UNSTABLE too): the confirmation holds exactly the keys that carry a confirmation.
  std::set<std::string> remeasured;
  for (const json& r : again["benchmarks"]) remeasured.insert(r["key"].get<std::string>());
  std::set<std::string> confirmed;
  for (const json& k : c["keys"]) {
    if (k.contains("confirmation")) confirmed.insert(k["key"].get<std::string>());
  }
  EXPECT_EQ(remeasured, confirmed);
  EXPECT_TRUE(remeasured.count(kKey));
  EXPECT_LT(remeasured.size(), 4u);  // the suite has four benchmarks
  bool seen = false;
  for (const json& k : c["keys"]) {
    if (k["key"] != kKey) continue;
    seen = true;
    EXPECT_EQ(k["verdict"], "REGRESSION");
    EXPECT_EQ(k["confirmation"]["first"], "REGRESSION");
    ASSERT_EQ(k["confirmation"]["later"].size(), 2u) << k.dump(2);
    EXPECT_EQ(k["confirmation"]["later"][0]["verdict"], "REGRESSION");
    EXPECT_EQ(k["confirmation"]["later"][1]["verdict"], "REGRESSION");
    EXPECT_NE(k["confirmation"]["decision"].get<std::string>().find("confirmed"),
              std::string::npos);
  }
  EXPECT_TRUE(seen);
  EXPECT_NE(c["confirmation_note"].get<std::string>().find("still failing"), std::string::npos)
      << c.dump(2);
  // `compare` on the run directory reproduces the confirmed verdict from confirm/.
  const auto compared = run_job(
      {FABRICGATE_CLI, "compare", run.string(), "--baseline", (dir_ / "b.json").string()}, 60);
  EXPECT_EQ(compared.exit_code, 1) << compared.output;
  EXPECT_NE(compared.output.find("confirmed"), std::string::npos) << compared.output;
}

TEST_F(ConfirmCli, NoConfirmFailsOnTheFirstLaunch) {
  make_unmeetable_baseline();
  auto args = run_args();
  args.push_back("--no-confirm");
  const auto job = run_job(args, 120);
  EXPECT_EQ(job.exit_code, 1) << job.output;
  EXPECT_FALSE(fs::exists(newest_run() / "confirm"));
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
