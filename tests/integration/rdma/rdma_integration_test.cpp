// The rdma and hostcopy families with real processes: libfabric tcp (on lo) and shm between two
// MPI ranks of this host, every operation, data checked; verbs built and skipped ("no RDMA
// device"); and tcp between two network namespaces joined by a veth pair (a two-host run on one
// machine). Every command is an argument vector (no shell) with a time limit; traffic stays on lo
// or the namespaces made here.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/fingerprint/subprocess.hpp"

namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct CommandResult {
  int status = -1;     // exit code; -1 when it could not start, was killed or timed out
  std::string out;     // stdout
  std::string output;  // everything, for failure messages
};

// Runs an argument vector (no shell) and kills it after `seconds`.
CommandResult run(const std::vector<std::string>& argv, int seconds = 60) {
  const auto p =
      fabricgate::fingerprint::run_program(argv, 16 << 20, std::chrono::seconds(seconds));
  CommandResult r;
  r.status = p.started && !p.timed_out && p.signal == 0 ? p.exit_code : -1;
  r.out = p.out;
  r.output = (p.succeeded() ? "" : p.failure_text(argv[0]) + "\n") + p.out + p.err;
  return r;
}

std::map<std::string, json> read_records(const fs::path& file) {
  std::map<std::string, json> out;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    const json j = json::parse(line);
    if (j.value("type", "") == "benchmark") out[j["key"].get<std::string>()] = j;
  }
  return out;
}

// One bench run of the loopback suite, shared by the tests below (it takes a few seconds).
class RdmaLoopback : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("fg-rdma-it-" + std::to_string(getpid()));
    fs::create_directories(dir_);
    const fs::path records = dir_ / "records.jsonl";
    const std::string suite =
        std::string(FABRICGATE_SOURCE_DIR) + "/tests/integration/rdma/rdma_loopback.json";
    run_ = run({"mpirun", "--allow-run-as-root", "--oversubscribe", "-np", "2", FABRICGATE_BENCH,
                "--suite", suite, "--records", records.string()},
               300);
    records_ = read_records(records);
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }

  static inline fs::path dir_;
  static inline CommandResult run_;
  static inline std::map<std::string, json> records_;
};

TEST_F(RdmaLoopback, BenchExitsCleanly) { ASSERT_EQ(run_.status, 0) << run_.output; }

TEST_F(RdmaLoopback, LibfabricTcpAndShmEveryOpOkWithDataCheckedAndProviderRecorded) {
  for (const std::string provider : {"tcp", "shm"}) {
    for (const std::string op : {"write", "read", "send", "pingpong"}) {
      for (const std::string bytes : {"8", "65536", "1048576"}) {
        std::string key = "rdma/libfabric/" + provider + "/" + op + "/bytes:" + bytes + "/ranks:2";
        if (op != "pingpong") key += "/window:16";
        ASSERT_TRUE(records_.count(key)) << key << "\n" << run_.output;
        const json& r = records_[key];
        if (!FABRICGATE_TEST_LIBFABRIC) {
          EXPECT_EQ(r["status"], "skipped");
          EXPECT_NE(r["message"].get<std::string>().find("built without libfabric headers"),
                    std::string::npos);
          continue;
        }
        EXPECT_EQ(r["status"], "ok") << key << ": " << r["message"];
        EXPECT_EQ(r["wrong_elements"], 0) << key;
        EXPECT_EQ(r["family"], "rdma");
        EXPECT_EQ(r["backend"], "libfabric");
        EXPECT_EQ(r["op"], op);
        EXPECT_EQ(r["bytes"].get<long long>(), std::stoll(bytes));
        EXPECT_GT(r["time_us"].get<double>(), 0) << key;
        EXPECT_GT(r["algbw_GBps"].get<double>(), 0) << key;
        EXPECT_FALSE(r.contains("busbw_GBps") && !r["busbw_GBps"].is_null() &&
                     r["busbw_GBps"].get<double>() > 0);
        // The provider actually chosen (tcp comes layered as "tcp;ofi_rxm"), and where.
        const std::string chosen = r["params"]["provider"].get<std::string>();
        EXPECT_EQ(chosen.rfind(provider, 0), 0u) << key << " chose " << chosen;
        EXPECT_EQ(r["params"]["provider_requested"], provider);
        EXPECT_EQ(r["params"]["domain"], provider == "tcp" ? "lo" : "shm") << key;
        EXPECT_FALSE(r["params"]["fi_version"].get<std::string>().empty());
        bool has_rate = false;
        for (const auto& n : r["notes"]) has_rate = has_rate || n["id"] == "rate";
        EXPECT_TRUE(has_rate) << key;
      }
    }
  }
}

TEST_F(RdmaLoopback, UnavailableThingsAreSkipsWithReasons) {
  const json& device = records_["rdma/libfabric/tcp/write/bytes:65536/ranks:2/mem:device"];
  EXPECT_EQ(device["status"], "skipped");
  EXPECT_FALSE(device["message"].get<std::string>().empty());
  const json& unknown = records_["rdma/libfabric/nosuchprovider/write/bytes:65536/ranks:2"];
  EXPECT_EQ(unknown["status"], "skipped");
  if (FABRICGATE_TEST_LIBFABRIC) {
    EXPECT_NE(unknown["message"].get<std::string>().find("nosuchprovider"), std::string::npos);
  }
}

TEST_F(RdmaLoopback, VerbsBuildsAndSkipsWithoutAnRdmaDevice) {
  if (FABRICGATE_TEST_VERBS && fs::exists("/sys/class/infiniband") &&
      !fs::is_empty("/sys/class/infiniband")) {
    GTEST_SKIP() << "this machine has an RDMA device; the skip path is not exercised";
  }
  for (const std::string op : {"write", "read", "send", "pingpong"}) {
    const std::string key = "rdma/verbs/any/" + op + "/bytes:65536/ranks:2";
    ASSERT_TRUE(records_.count(key)) << key;
    EXPECT_EQ(records_[key]["status"], "skipped");
    const std::string want =
        FABRICGATE_TEST_VERBS ? "no RDMA device" : "built without libibverbs headers";
    EXPECT_NE(records_[key]["message"].get<std::string>().find(want), std::string::npos)
        << records_[key]["message"];
    EXPECT_EQ(records_[key]["params"]["provider"], "verbs");
  }
}

TEST_F(RdmaLoopback, HostCopiesCheckedAndFast) {
  for (const std::string bytes : {"4096", "1048576"}) {
    const json& r = records_["hostcopy/host/memcpy/bytes:" + bytes + "/ranks:2"];
    EXPECT_EQ(r["status"], "ok") << r.dump();
    EXPECT_EQ(r["wrong_elements"], 0);
    EXPECT_GT(r["algbw_GBps"].get<double>(), 0.1);  // any working memcpy beats 100 MB/s
    EXPECT_TRUE(r["params"].contains("numa_node"));
  }
}

// Two network namespaces joined by a veth pair, torn down by RAII whatever happens.
class VethPair {
 public:
  explicit VethPair(const std::string& tag) : a_("fga-" + tag), b_("fgb-" + tag) {
    ok_ = run({"ip", "netns", "add", a_}).status == 0;
    if (!ok_) return;
    ok_ = run({"ip", "netns", "add", b_}).status == 0;
    const std::string va = "fgva-" + tag, vb = "fgvb-" + tag;
    // Both ends renamed "fgveth" inside their namespace, so one libfabric domain name fits both.
    const std::vector<std::vector<std::string>> steps = {
        {"ip", "link", "add", va, "type", "veth", "peer", "name", vb},
        {"ip", "link", "set", va, "netns", a_},
        {"ip", "link", "set", vb, "netns", b_},
        {"ip", "-n", a_, "link", "set", va, "name", "fgveth"},
        {"ip", "-n", b_, "link", "set", vb, "name", "fgveth"},
        {"ip", "-n", a_, "addr", "add", "10.250.0.1/24", "dev", "fgveth"},
        {"ip", "-n", b_, "addr", "add", "10.250.0.2/24", "dev", "fgveth"},
        {"ip", "-n", a_, "link", "set", "fgveth", "up"},
        {"ip", "-n", b_, "link", "set", "fgveth", "up"},
        {"ip", "-n", a_, "link", "set", "lo", "up"},
        {"ip", "-n", b_, "link", "set", "lo", "up"}};
    for (const auto& step : steps) {
      if (ok_) ok_ = run(step).status == 0;
    }
  }
  ~VethPair() {
    run({"ip", "netns", "del", a_});  // deleting a namespace deletes its veth end, and so the pair
    run({"ip", "netns", "del", b_});
  }
  bool ok() const { return ok_; }
  const std::string& a() const { return a_; }
  const std::string& b() const { return b_; }

 private:
  std::string a_, b_;
  bool ok_ = false;
};

TEST(RdmaTwoHosts, TcpProviderAcrossNetworkNamespaces) {
  if (!FABRICGATE_TEST_LIBFABRIC) GTEST_SKIP() << "built without libfabric headers";
  if (geteuid() != 0) GTEST_SKIP() << "ip netns add needs root (CAP_SYS_ADMIN)";
  const std::string tag = std::to_string(getpid() % 100000);
  const VethPair pair(tag);
  if (!pair.ok()) GTEST_SKIP() << "ip netns add / veth creation is not permitted here";
  // The two ranks bootstrap over plain TCP on the veth pair itself (fabricgate-rdma-pair), without
  // MPI; Open MPI across namespaces, through a launch agent, is
  // tests/integration/multinode/netns_*.
  const auto rank = [&](const std::string& netns, const char* id) {
    return std::vector<std::string>{
        "ip",         "netns", "exec", netns,    FABRICGATE_RDMA_PAIR, id,
        "10.250.0.1", "47911", "tcp",  "fgveth", "65536,1048576"};
  };
  // Rank 1 in the background (its own thread), rank 0 here; each killed after 120 s at most.
  auto rank1 = std::async(std::launch::async, [&] { return run(rank(pair.b(), "1"), 120); });
  const CommandResult r = run(rank(pair.a(), "0"), 120);
  const CommandResult r1 = rank1.get();
  ASSERT_EQ(r.status, 0) << r.output << "\nrank 1:\n" << r1.output;
  EXPECT_EQ(r1.status, 0) << r1.output;
  int ok = 0;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] != '{') continue;
    const json j = json::parse(line);
    EXPECT_EQ(j["status"], "ok") << line;
    EXPECT_EQ(j["wrong_elements"], 0) << line;
    EXPECT_EQ(j["params"]["domain"], "fgveth")
        << line;  // the veth, not lo: traffic crossed namespaces
    EXPECT_NE(j["params"]["fabric"].get<std::string>().find("10.250.0."), std::string::npos)
        << line;
    EXPECT_EQ(j["params"]["provider"].get<std::string>().rfind("tcp", 0), 0u) << line;
    ok += j["status"] == "ok" ? 1 : 0;
  }
  EXPECT_EQ(ok, 8) << r.output;  // 4 ops × 2 sizes
}

}  // namespace
}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
