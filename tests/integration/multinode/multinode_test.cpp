// Multi-node features end to end on this host: `fabricgate run` launches 4 real MPI ranks as
// emulated nodes (2 nodes x 2 ranks, then 4 nodes x 1 rank), and the run directory must show
// k and g, one fingerprint per node gathered on rank 0, node-pair keys from the round-robin
// rounds, and `fabricgate compare` naming a node whose facts were made to differ.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "core/json_file.hpp"
#include "mpi_job.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;
using testing::run_job;

std::string host() {
  char buf[256] = {0};
  gethostname(buf, sizeof buf - 1);
  return buf;
}

// bench/engine/node_layout.cpp key_safe_node_name, restated: the test checks the keys it makes.
std::string key_safe(std::string s) {
  for (char& c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
  }
  return s;
}

class Multinode : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("fg-mn-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    unsetenv("FABRICGATE_TEST_NODE_FACT_OVERRIDE");
    fs::remove_all(dir_);
  }

  fs::path suite(int emulate, const json& benchmarks) {
    const json s = {{"schema", "fabricgate.suite/1"},
                    {"name", "mn"},
                    {"ranks", 4},
                    {"emulate_nodes", emulate},
                    {"defaults", {{"repetitions", 3}, {"warmup", 1}, {"iterations", 5}}},
                    {"benchmarks", benchmarks}};
    const fs::path p = dir_ / "mn.json";
    std::ofstream(p) << s.dump(2);
    return p;
  }

  // Runs the suite without comparing; returns the run directory.
  fs::path run(const fs::path& suite_file) {
    const auto job =
        run_job({FABRICGATE_CLI, "run", "--suite", suite_file.string(), "--results-dir",
                 (dir_ / "results").string(), "--lock", (dir_ / "lock").string(), "--bench",
                 FABRICGATE_BENCH, "--platform", "test-box", "--no-compare"},
                60);
    EXPECT_EQ(job.exit_code, 0) << job.output;
    std::vector<fs::path> dirs;
    for (const auto& e : fs::directory_iterator(dir_ / "results" / "test-box"))
      dirs.push_back(e.path());
    EXPECT_EQ(dirs.size(), 1u);
    return dirs.empty() ? fs::path() : dirs.front();
  }

  fs::path dir_;
};

const json* find_key(const json& run, const std::string& key) {
  for (const auto& b : run["benchmarks"]) {
    if (b["key"] == key) return &b;
  }
  return nullptr;
}

TEST_F(Multinode, TwoEmulatedNodesOfTwoRanks) {
  const fs::path d =
      run(suite(2, {{{"family", "coll"},
                     {"backend", "mpi"},
                     {"ops", {"all_reduce"}},
                     {"sizes", {{"list", {8, 4096}}}}},
                    {{"family", "nodepairs"}, {"backend", "mpi"}, {"sizes", {{"list", {4096}}}}}}));
  const json r = load_json_file(d / "run.json", "fabricgate.run/1");
  EXPECT_EQ(r["launch"]["nranks"], 4);
  EXPECT_EQ(r["launch"]["nodes"], 2);
  EXPECT_EQ(r["launch"]["ranks_per_node"], 2);
  EXPECT_EQ(r["launch"]["nodes_emulated"], true);
  const std::string n0 = host() + "-node0";
  const std::string n1 = host() + "-node1";
  ASSERT_EQ(r["nodes"].size(), 2u) << r["nodes"].dump();
  EXPECT_EQ(r["nodes"][0]["name"], n0);
  EXPECT_EQ(r["nodes"][1]["name"], n1);
  EXPECT_EQ(r["nodes"][1]["ranks"], json({2, 3}));
  EXPECT_EQ(r["nodes"][1]["hostname"], host());
  EXPECT_TRUE(r["nodes"][0]["facts"].contains("driver"));
  EXPECT_TRUE(r["nodes"][0]["facts"].contains("nic_links"));
  EXPECT_EQ(r["ranks"][3]["node"], n1);
  // One round, one pair; 3 samples (the slower of its two ranks per repetition).
  const json* pair =
      find_key(r, "pairs/mpi/sendrecv/bytes:4096/nodes:" + key_safe(n0) + "+" + key_safe(n1));
  ASSERT_NE(pair, nullptr) << r["benchmarks"].dump();
  EXPECT_EQ((*pair)["status"], "ok") << pair->dump();
  EXPECT_EQ((*pair)["samples"]["time_us"].size(), 3u);
  EXPECT_EQ((*pair)["params"]["ranks"], json({0, 2}));  // each node's representative
  EXPECT_NE(find_key(r, "pairs/mpi/sendrecv/bytes:4096/round:0"), nullptr);
  EXPECT_NE(find_key(r, "coll/mpi/all_reduce/float32/sum/bytes:4096/ranks:4/oop"), nullptr);

  const auto md = run_job({FABRICGATE_CLI, "compare", d.string(), "--format", "markdown"}, 30);
  EXPECT_EQ(md.exit_code, 0) << md.output;  // same facts on both nodes, no baseline: nothing fails
  EXPECT_NE(md.output.find("2 nodes x 2 ranks"), std::string::npos) << md.output;
  EXPECT_NE(md.output.find("emulated on one host"), std::string::npos) << md.output;
  EXPECT_NE(md.output.find("P11"), std::string::npos) << md.output;
  EXPECT_EQ(md.output.find("NODE-MISMATCH"), std::string::npos) << md.output;
}

TEST_F(Multinode, FourEmulatedNodesRunAllPairsAndTheGateNamesTheOddNode) {
  setenv("FABRICGATE_TEST_NODE_FACT_OVERRIDE", "2:nccl=0.0.0-injected", 1);
  const fs::path d = run(suite(
      4, {{{"family", "nodepairs"}, {"backend", "mpi"}, {"sizes", {{"list", {4096, 65536}}}}}}));
  const json r = load_json_file(d / "run.json", "fabricgate.run/1");
  EXPECT_EQ(r["launch"]["nodes"], 4);
  EXPECT_EQ(r["launch"]["ranks_per_node"], 1);
  ASSERT_EQ(r["nodes"].size(), 4u);
  EXPECT_EQ(r["nodes"][2]["facts"]["nccl"], "0.0.0-injected");
  EXPECT_EQ(r["nodes"][2]["test_override"], "nccl=0.0.0-injected");
  EXPECT_FALSE(r["nodes"][1].contains("test_override"));
  // k = 4: 3 rounds x 2 sizes, and all 6 pairs per size, each node in 3 of them.
  std::set<std::string> pairs;
  int rounds = 0;
  std::map<std::string, int> per_node;
  for (const auto& b : r["benchmarks"]) {
    if (b["op"] == "sendrecv_round") ++rounds;
    if (b["op"] != "sendrecv") continue;
    EXPECT_EQ(b["status"], "ok") << b.dump();
    pairs.insert(b["key"].get<std::string>());
    if (b["bytes"] == 4096) {
      for (const auto& n : b["params"]["nodes"]) ++per_node[n.get<std::string>()];
    }
  }
  EXPECT_EQ(rounds, 6);
  EXPECT_EQ(pairs.size(), 12u);
  ASSERT_EQ(per_node.size(), 4u);
  for (const auto& [node, n] : per_node) EXPECT_EQ(n, 3) << node;
  EXPECT_TRUE(pairs.count("pairs/mpi/sendrecv/bytes:65536/nodes:" + key_safe(host() + "-node1") +
                          "+" + key_safe(host() + "-node3")));

  const auto console = run_job({FABRICGATE_CLI, "compare", d.string()}, 30);
  EXPECT_EQ(console.exit_code, 1) << console.output;
  EXPECT_NE(console.output.find("CLUSTER FAIL NODE-MISMATCH: node " + host() +
                                "-node2: nccl \"0.0.0-injected\""),
            std::string::npos)
      << console.output;
  const auto js = run_job({FABRICGATE_CLI, "compare", d.string(), "--format", "json"}, 30);
  const json c = json::parse(js.output);
  bool named = false;
  for (const auto& f : c["cluster_findings"]) {
    if (f["id"] == "NODE-MISMATCH") {
      EXPECT_EQ(f["node"], host() + "-node2");
      EXPECT_EQ(f["field"], "nccl");
      EXPECT_TRUE(f["fails_gate"].get<bool>());
      named = true;
    }
  }
  EXPECT_TRUE(named) << js.output;
}

TEST_F(Multinode, EmulatedNodesMustDivideTheRanks) {
  const auto job =
      run_job({FABRICGATE_CLI, "run", "--suite",
               suite(3, {{{"family", "nodepairs"}, {"sizes", {{"list", {64}}}}}}).string(),
               "--results-dir", (dir_ / "results").string(), "--lock", (dir_ / "lock").string(),
               "--bench", FABRICGATE_BENCH, "--platform", "test-box", "--no-compare"},
              60);
  EXPECT_EQ(job.exit_code, 2) << job.output;
  EXPECT_NE(job.output.find("divides the rank count (4 ranks), found 3"), std::string::npos)
      << job.output;
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
