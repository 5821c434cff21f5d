// One judge, through `run` too (harness/gate/judge_run.hpp): a live `fabricgate run` (real mpirun
// ranks, the real bench) against a baseline that one key cannot meet (so it is re-measured in two
// confirmation launches) and a results store in which another key DRIFTs writes comparison.json;
// `compare --format json` and `report --format json` of the same run directory, baseline and store
// give the same verdict for every key and the same exit code. The tests/integration/gate twin
// covers every report format on generated runs; this one covers the verdicts `run` itself writes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "core/json_file.hpp"
#include "mpi_job.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;
using testing::run_job;

const char* kUnmeetable = "coll/mpi/all_reduce/float32/sum/bytes:65536/ranks:2/oop";

std::map<std::string, std::string> verdicts_of(const json& comparison) {
  std::map<std::string, std::string> out;
  for (const json& k : comparison.at("keys"))
    out[k.at("key").get<std::string>()] = k.at("verdict").get<std::string>();
  return out;
}

// Scales one benchmark record's speed by `faster` (> 1: faster): times divided, rates multiplied.
void scale_speed(json& b, double faster) {
  b["time_us"] = b["time_us"].get<double>() / faster;
  for (const char* rate : {"algbw_GBps", "busbw_GBps"}) {
    if (b.contains(rate) && b[rate].is_number()) b[rate] = b[rate].get<double>() * faster;
  }
  json& s = b["samples"];
  for (json& v : s["time_us"]) v = v.get<double>() / faster;
  for (const char* rate : {"algbw_GBps", "busbw_GBps"}) {
    if (!s.contains(rate)) continue;
    for (json& v : s[rate]) v = v.get<double>() * faster;
  }
}

class run_VerdictAgreement : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("fg-run-agreement-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    const json s = {{"schema", "fabricgate.suite/1"},
                    {"name", "agreement"},
                    {"ranks", 2},
                    {"defaults", {{"repetitions", 3}, {"warmup", 2}, {"target_sample_ms", 2}}},
                    {"benchmarks", json::array({{{"family", "coll"},
                                                 {"backend", "mpi"},
                                                 {"ops", {"all_reduce", "broadcast"}},
                                                 {"sizes", {{"list", {8, 65536}}}}}})}};
    suite_ = dir_ / "agreement.json";
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
            "--store",       store(),
            "--confirm-gap", "1"};
  }
  std::string store() const { return "sqlite:" + (dir_ / "store.sqlite").string(); }
  std::string baseline() const { return (dir_ / "b.json").string(); }

  fs::path newest_run() const {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(dir_ / "results" / "test-box"))
      out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out.back();
  }

  fs::path dir_;
  fs::path suite_;
};

TEST_F(run_VerdictAgreement, RunCompareAndReportGiveTheSameVerdicts) {
  // Three launches -> a baseline with wide floors (two ranks on shared CI cores swing by 2x).
  std::vector<std::string> create = {FABRICGATE_CLI, "baseline", "create", "--out", baseline()};
  for (int i = 0; i < 3; ++i) {
    auto args = run_args();
    args.push_back("--no-compare");
    const auto job = run_job(args, 120);
    ASSERT_EQ(job.exit_code, 0) << job.output;
    create.insert(create.end(), {"--from", newest_run().string()});
  }
  const auto made = run_job(create, 60);
  ASSERT_EQ(made.exit_code, 0) << made.output;
  json b = load_json_file(baseline(), "fabricgate.baseline/3");
  b["tolerance_policy"]["max_band"] = 0.95;
  b["tolerance_policy"]["unstable_cv"] = 5.0;
  // Other MPI tests beside this one are CPU pressure; the verdicts under test are not "busy".
  b["tolerance_policy"]["busy_cpu_pressure"] = 1.0;
  // Launches of one sitting: no between-sitting term (left to the allowance, every key would be
  // UNMEASURED and not gated); the subject here is that every format agrees.
  b["tolerance_policy"]["session_allowance"] = 0.0;
  for (auto& c : b["tolerance_policy"]["size_classes"]) c["tolerance"] = 0.9;
  // One key made unmeetable: three agreeing launches at 1/100 of this machine's time.
  json& t = b["entries"][kUnmeetable]["time_us"];
  const double fast = t["median"].get<double>() / 100;
  t["run_medians"] = json::array({fast, fast * 1.001, fast * 0.999});
  t["median"] = fast;

  // The store's history of this host: eight runs on which the 64 KiB broadcast was five times
  // faster than this machine is, then six at this machine's own level. Each of the six passes
  // the baseline; the level has moved: DRIFT (a 5x step, far beyond launch-to-launch noise).
  std::string drifting;
  for (const auto& [key, entry] : b["entries"].items()) {
    if (entry["op"] == "broadcast" && entry["bytes"] == 65536) drifting = key;
  }
  ASSERT_FALSE(drifting.empty()) << b.dump(2);
  // Its three launches made to agree, so that its band is the 90 % floor (three launches on
  // shared cores give a band too wide to gate: NOISY, which DRIFT leaves alone).
  for (const char* metric : {"time_us", "algbw_GBps", "busbw_GBps"}) {
    json& m = b["entries"][drifting][metric];
    if (!m.is_object()) continue;
    const double median = m["median"].get<double>();
    m["run_medians"] = json::array({median, median * 1.001, median * 0.999});
  }
  write_json_atomically(baseline(), b);
  const json measured = load_json_file(newest_run() / "run.json");
  for (int i = 0; i < 14; ++i) {
    json h = measured;
    const std::string id = "hist-" + std::to_string(100 + i);
    h["run_id"] = id;
    h["started_at"] =
        "2026-01-01T" + std::string(i < 10 ? "0" : "") + std::to_string(i) + ":00:00Z";
    for (json& r : h["benchmarks"]) {
      if (r["key"] == drifting) scale_speed(r, (i < 8 ? 5.0 : 1.0) * (1 + 0.002 * (i % 3)));
    }
    write_json_atomically(dir_ / "history" / "test-box" / id / "run.json", h);
  }
  const auto imported =
      run_job({FABRICGATE_CLI, "store", "import", (dir_ / "history").string(), "--store", store(),
               "--vouch"},  // this host's own runs: sealed, so they are its level and DRIFT series
              60);
  ASSERT_EQ(imported.exit_code, 0) << imported.output;

  // The live run: the unmeetable key fails and is confirmed in two launches; the drifting key
  // passes the baseline and is judged DRIFT from the store.
  auto args = run_args();
  args.insert(args.end(), {"--baseline", baseline(), "--report", "json"});
  const auto ran = run_job(args, 240);
  // The baseline's three launches are one sitting of this host, fewer than host_min_sessions:
  // the store's history is the host's level, and failing against it with the baseline's software
  // is RUNNER DEGRADED (exit 3, harness/gate/outcome.hpp). Every format must say the same.
  ASSERT_EQ(ran.exit_code, 3) << ran.output;
  EXPECT_NE(ran.output.find("RUNNER DEGRADED"), std::string::npos) << ran.output;
  const fs::path run = newest_run();
  ASSERT_TRUE(fs::exists(run / "confirm-2" / "run.json")) << ran.output;
  const std::map<std::string, std::string> by_run =
      verdicts_of(load_json_file(run / "comparison.json"));
  ASSERT_EQ(by_run.size(), 4u);
  EXPECT_EQ(by_run.at(kUnmeetable), "REGRESSION");
  EXPECT_EQ(by_run.at(drifting), "DRIFT") << ran.output;

  const fs::path compared_json = dir_ / "compare.json";
  const auto compared =
      run_job({FABRICGATE_CLI, "compare", run.string(), "--baseline", baseline(), "--store",
               store(), "--format", "json", "--out", compared_json.string()},
              60);
  EXPECT_EQ(compared.exit_code, ran.exit_code) << compared.output;
  EXPECT_EQ(verdicts_of(load_json_file(compared_json)), by_run);

  const fs::path reported_json = dir_ / "report.json";
  const auto reported =
      run_job({FABRICGATE_CLI, "report", run.string(), "--baseline", baseline(), "--store", store(),
               "--format", "json", "--out", reported_json.string()},
              60);
  EXPECT_EQ(reported.exit_code, ran.exit_code) << reported.output;
  EXPECT_EQ(verdicts_of(load_json_file(reported_json)), by_run);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
