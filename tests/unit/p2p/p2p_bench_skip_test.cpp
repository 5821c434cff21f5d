// Integration: fabricgate-bench registers the p2p and hostcopy benchmarks of suites/p2p.json and,
// on a machine without a GPU, skips every one with a reason that says so, on 1 rank and on 2 (the
// second rank idles; the ranks must still agree on every decision and finish).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "harness/fingerprint/subprocess.hpp"

namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;

namespace {

struct BenchRun {
  int rc = -1;
  std::vector<nlohmann::json> records;  // benchmark records only (no header/footer)
  std::string log;
};

BenchRun run_bench(int ranks) {
  const fs::path dir = fs::temp_directory_path() /
                       ("fabricgate-p2p-it-" + std::to_string(ranks) + "-" +
                        std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path records = dir / "records.jsonl";
  // An argument vector, no shell; bounded in time (a hung rank fails the test, it does not stall
  // it).
  const auto run = fabricgate::fingerprint::run_program(
      {FABRICGATE_MPIEXEC, "--allow-run-as-root", "--oversubscribe", "-np", std::to_string(ranks),
       FABRICGATE_BENCH, "--suite", std::string(FABRICGATE_SOURCE_DIR) + "/suites/p2p.json",
       "--records", records.string()},
      16 << 20, std::chrono::seconds(300));
  BenchRun r;
  r.rc = run.succeeded() ? 0 : (run.exit_code > 0 ? run.exit_code : -1);
  r.log = run.failure_text("mpirun") + "\n" + run.out + run.err;
  std::ifstream in(records);
  for (std::string line; std::getline(in, line);) {
    auto j = nlohmann::json::parse(line);
    if (j.value("type", "") == "benchmark")
      r.records.push_back(std::move(j));  // not "start" markers
  }
  fs::remove_all(dir);
  return r;
}

void expect_all_skipped_with_reason(const BenchRun& r) {
  ASSERT_EQ(r.rc, 0) << r.log;
  ASSERT_FALSE(r.records.empty()) << r.log;
  std::set<std::string> keys;
  for (const auto& rec : r.records) {
    keys.insert(rec["key"].get<std::string>());
    EXPECT_EQ(rec["status"], "skipped") << rec.dump();
    EXPECT_EQ(rec["backend"], "cuda");
    const std::string msg = rec["message"].get<std::string>();
    EXPECT_TRUE(msg.find("no GPU") != std::string::npos ||
                msg.find("without CUDA") != std::string::npos)
        << msg;
  }
  // The keys of a 2-GPU machine are registered even here (skipped), so baselines line up.
  for (const char* k :
       {"p2p/ce/write/uni/src:0/dst:1/bytes:1073741824",
        "p2p/ce/read/bi/src:1/dst:0/bytes:1073741824",
        "p2p/sm/write/uni/src:0/dst:1/bytes:268435456",
        "p2p/ce/write/uni/src:0/dst:all/bytes:1073741824",
        "p2p/ce/read/uni/src:all/dst:1/bytes:1073741824", "p2p/sm/local/gpu:1/bytes:1073741824",
        "p2p/ce/latency/src:0/dst:1/bytes:8", "p2p/sm/latency/src:1/dst:0/bytes:8",
        "hostcopy/cuda/h2d/pinned/gpu:0/bytes:1073741824",
        "hostcopy/cuda/bi/pinned/gpu:0/bytes:268435456",
        "hostcopy/cuda/d2h/pageable/gpu:0/bytes:1073741824",
        "hostcopy/cuda/h2d/pinned/gpu:0/bytes:8"}) {
    EXPECT_TRUE(keys.count(k)) << "missing " << k;
  }
  EXPECT_EQ(keys.size(), r.records.size()) << "duplicate keys";
}

}  // namespace

TEST(P2pBenchIntegration, OneRankRegistersAndSkipsWithAReason) {
  expect_all_skipped_with_reason(run_bench(1));
}

TEST(P2pBenchIntegration, TwoRanksAgreeAndFinish) {
  const BenchRun one = run_bench(1);
  const BenchRun two = run_bench(2);
  expect_all_skipped_with_reason(two);
  ASSERT_EQ(one.records.size(), two.records.size());
  for (std::size_t i = 0; i < one.records.size(); ++i)
    EXPECT_EQ(one.records[i]["key"], two.records[i]["key"]);
  // With 2 ranks the reason names the rank that could not run (rank 0 measures).
  EXPECT_EQ(two.records.front()["message"].get<std::string>().rfind("rank 0: ", 0), 0u)
      << two.records.front().dump();
}
}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
