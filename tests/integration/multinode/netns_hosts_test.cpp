// Real Open MPI across two emulated hosts: `fabricgate run --hostfile` runs in a hub network
// namespace and its mpirun starts one orted per host namespace through ci/netns/netns-agent (the
// launch agent standing in for ssh). The run must see k = 2 real nodes named as the hosts, MPI
// collectives and node pairs correct over Open MPI's TCP BTL, libfabric tcp on the hosts' veth
// (not lo), and megabytes through the veths. Skips where namespaces cannot be made (not root,
// no CAP_SYS_ADMIN). Every command has a deadline; the namespaces go whatever happens.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <fstream>

#include "core/json_file.hpp"
#include "mpi_job.hpp"
#include "netns_hosts.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;
using testing::NetnsHosts;
using testing::run_job;

const std::string kAgent = std::string(FABRICGATE_SOURCE_DIR) + "/ci/netns/netns-agent";
const std::string kSuite =
    std::string(FABRICGATE_SOURCE_DIR) + "/tests/integration/multinode/netns_two_hosts.json";

// A host name as a key component (bench/engine/node_layout: [A-Za-z0-9_-] kept, else '_').
std::string bench_safe(std::string name) {
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
  }
  return name;
}

const json* find_key(const json& run, const std::string& key) {
  for (const auto& b : run["benchmarks"]) {
    if (b["key"] == key) return &b;
  }
  return nullptr;
}

class NetnsTwoHosts : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("fg-netns-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // `fabricgate run --hostfile` from the hub namespace across the two hosts; the run directory's
  // run.json. `extra_env` goes to mpirun (and so to the agent).
  json run_across(const NetnsHosts& hosts, const std::vector<std::string>& extra_env = {}) {
    const fs::path hostfile = dir_ / "hostfile";
    std::ofstream(hostfile) << NetnsHosts::host_name(0) << " slots=1\n"
                            << NetnsHosts::host_name(1) << " slots=1\n";
    // Open MPI reads its parameters from OMPI_MCA_* in mpirun's environment, and `fabricgate run`
    // forwards them to every rank with -x: the agent, and TCP only on the bridge's subnet for both
    // the out-of-band channel (orted <-> mpirun) and the BTL (rank <-> rank). ob1 + self,tcp leave
    // the ranks one path between them, so a wrong locality cannot hide behind shared memory.
    const std::string subnet = NetnsHosts::kSubnet;
    // ip netns exec HUB env VARS... fabricgate run ...: the launcher host is the hub namespace.
    std::vector<std::string> argv = {"ip",
                                     "netns",
                                     "exec",
                                     hosts.hub(),
                                     "env",
                                     "FABRICGATE_NETNS_HOSTS=" + hosts.agent_map(),
                                     "OMPI_MCA_plm_rsh_agent=" + kAgent,
                                     "OMPI_MCA_oob_tcp_if_include=" + subnet,
                                     "OMPI_MCA_btl_tcp_if_include=" + subnet,
                                     "OMPI_MCA_btl=self,tcp",
                                     "OMPI_MCA_pml=ob1"};
    argv.insert(argv.end(), extra_env.begin(), extra_env.end());
    const std::vector<std::string> run = {FABRICGATE_CLI,
                                          "run",
                                          "--suite",
                                          kSuite,
                                          "--launcher",
                                          "mpirun",
                                          "--hostfile",
                                          hostfile.string(),
                                          "--ranks",
                                          "2",
                                          "--results-dir",
                                          (dir_ / "results").string(),
                                          "--lock",
                                          (dir_ / "lock").string(),
                                          "--bench",
                                          FABRICGATE_BENCH,
                                          "--platform",
                                          "test-box",
                                          "--no-compare",
                                          "--timeout",
                                          "150"};
    argv.insert(argv.end(), run.begin(), run.end());
    const auto job = run_job(argv, 200);  // fabricgate kills a hung mpirun at 150 s, this at 200 s
    EXPECT_EQ(job.exit_code, 0) << job.output;
    std::vector<fs::path> dirs;
    for (const auto& e : fs::directory_iterator(dir_ / "results" / "test-box"))
      dirs.push_back(e.path());
    EXPECT_EQ(dirs.size(), 1u);
    if (dirs.size() != 1) return json::object();
    run_dir_ = dirs.front();
    return load_json_file(run_dir_ / "run.json", "fabricgate.run/1");
  }

  fs::path dir_;
  fs::path run_dir_;
};

TEST_F(NetnsTwoHosts, AgentRefusesAHostItDoesNotKnow) {
  // Like ssh to an unknown host: exit 255 and a message naming the host, nothing started.
  const auto r = run_job(
      {"env", "FABRICGATE_NETNS_HOSTS=fgnode0=fgn0-x", kAgent, "-x", "fgnode7", "true"}, 10);
  EXPECT_EQ(r.exit_code, 255) << r.output;
  EXPECT_NE(r.output.find("host \"fgnode7\" is not in FABRICGATE_NETNS_HOSTS"), std::string::npos)
      << r.output;
}

TEST_F(NetnsTwoHosts, FabricgateRunSpansTwoHostsThroughMpirun) {
  if (::geteuid() != 0) GTEST_SKIP() << "ip netns add and unshare --uts need root (CAP_SYS_ADMIN)";
  const NetnsHosts hosts(std::to_string(::getpid() % 100000));
  if (!hosts.ok()) GTEST_SKIP() << "network namespaces cannot be made here: " << hosts.error();

  const long long rx0 = hosts.received_bytes(0), rx1 = hosts.received_bytes(1);
  const json r = run_across(hosts);
  ASSERT_FALSE(r.empty());
  const fs::path hostfile = dir_ / "hostfile";

  // Two real nodes (not emulated), one rank each, named by the hosts' own host names.
  EXPECT_EQ(r["complete"], true);
  EXPECT_EQ(r["launch"]["nranks"], 2);
  EXPECT_EQ(r["launch"]["nodes"], 2);
  EXPECT_EQ(r["launch"]["ranks_per_node"], 1);
  EXPECT_EQ(r["launch"]["nodes_emulated"], false);
  ASSERT_EQ(r["nodes"].size(), 2u) << r["nodes"].dump();
  for (int i = 0; i < 2; ++i) {
    const json& node = r["nodes"][static_cast<std::size_t>(i)];
    EXPECT_EQ(node["name"], NetnsHosts::host_name(i)) << node.dump();
    EXPECT_EQ(node["hostname"], NetnsHosts::host_name(i)) << node.dump();
    EXPECT_EQ(node["emulated"], false) << node.dump();
    EXPECT_EQ(node["ranks"], json({i})) << node.dump();
    EXPECT_EQ(r["ranks"][static_cast<std::size_t>(i)]["node"], NetnsHosts::host_name(i));
    EXPECT_EQ(r["ranks"][static_cast<std::size_t>(i)]["host"], NetnsHosts::host_name(i));
  }
  const json launch = load_json_file(run_dir_ / "launch.json", "fabricgate.launch/1");
  EXPECT_NE(launch["argv"].dump().find("\"--hostfile\",\"" + hostfile.string() + "\""),
            std::string::npos)
      << launch.dump();

  // MPI between the hosts: every collective ok with its data checked, and the node pair.
  int mpi_ok = 0;
  for (const auto& b : r["benchmarks"]) {
    if (b["backend"] != "mpi") continue;
    EXPECT_EQ(b["status"], "ok") << b.dump();
    EXPECT_EQ(b.value("wrong_elements", 0), 0) << b["key"];
    ++mpi_ok;
  }
  EXPECT_EQ(mpi_ok, 3 * 3 + 2 + 2) << r["benchmarks"].dump();  // 3 ops x 3 sizes, 2 pairs, 2 rounds
  const json* pair = find_key(r, "pairs/mpi/sendrecv/bytes:1048576/nodes:fgnode0+fgnode1");
  ASSERT_NE(pair, nullptr) << r["benchmarks"].dump();
  EXPECT_EQ((*pair)["params"]["ranks"], json({0, 1}));

  // libfabric tcp on the hosts' veth: its domain is fgeth0 and its fabric the bridge's subnet
  // (on lo they would be "lo" and 127.0.0.0/8).
  int rdma = 0;
  for (const auto& b : r["benchmarks"]) {
    if (b["family"] != "rdma") continue;
    ++rdma;
    if (!FABRICGATE_TEST_LIBFABRIC) {
      EXPECT_EQ(b["status"], "skipped") << b.dump();
      continue;
    }
    EXPECT_EQ(b["status"], "ok") << b.dump();
    EXPECT_EQ(b["wrong_elements"], 0) << b["key"];
    EXPECT_EQ(b["params"]["domain"], NetnsHosts::kInterface) << b["key"];
    EXPECT_EQ(b["params"]["fabric"], NetnsHosts::kSubnet) << b["key"];
    EXPECT_EQ(b["params"]["provider"].get<std::string>().rfind("tcp", 0), 0u) << b["key"];
  }
  EXPECT_EQ(rdma, 4 * 2);  // 4 ops x 2 sizes

  // The bytes really crossed the veths. Each host receives at least 4 MiB from the 1 MiB node pair
  // alone (warm-up + 3 repetitions); the launch's own control traffic is kilobytes, and the whole
  // suite moved 43 and 50 MiB when this was written.
  EXPECT_GT(hosts.received_bytes(0) - rx0, 4LL << 20);
  EXPECT_GT(hosts.received_bytes(1) - rx1, 4LL << 20);

  // Reports say two nodes, not "emulated on one host"; same facts on both, so no finding.
  const auto md =
      run_job({FABRICGATE_CLI, "compare", run_dir_.string(), "--format", "markdown"}, 60);
  EXPECT_EQ(md.exit_code, 0) << md.output;
  EXPECT_NE(md.output.find("2 nodes x 1 ranks"), std::string::npos) << md.output;
  EXPECT_EQ(md.output.find("emulated on one host"), std::string::npos) << md.output;
  EXPECT_EQ(md.output.find("NODE-MISMATCH"), std::string::npos) << md.output;
}

// Two hosts that share one host name (no UTS namespace, like containers all called "localhost"):
// still two nodes, told apart by MPI's shared-memory groups and named after their lowest rank.
TEST_F(NetnsTwoHosts, DuplicateHostNamesDoNotMergeNodes) {
  if (::geteuid() != 0) GTEST_SKIP() << "ip netns add needs root (CAP_SYS_ADMIN)";
  const NetnsHosts hosts(std::to_string(::getpid() % 100000 + 1));
  if (!hosts.ok()) GTEST_SKIP() << "network namespaces cannot be made here: " << hosts.error();
  const json r = run_across(
      hosts, {"FABRICGATE_NETNS_SAME_HOSTNAME=1", "FABRICGATE_NETNS_TMPDIR=" + dir_.string()});
  ASSERT_FALSE(r.empty());
  char own[256] = {0};
  ::gethostname(own, sizeof own - 1);
  EXPECT_EQ(r["launch"]["nodes"], 2);
  EXPECT_EQ(r["launch"]["ranks_per_node"], 1);
  ASSERT_EQ(r["nodes"].size(), 2u) << r["nodes"].dump();
  for (int i = 0; i < 2; ++i) {
    const auto at = static_cast<std::size_t>(i);
    EXPECT_EQ(r["ranks"][at]["host"], own);  // the same host name on both...
    EXPECT_EQ(r["nodes"][at]["name"], std::string(own) + "-rank" + std::to_string(i))
        << r["nodes"].dump();  // ...two nodes
    EXPECT_EQ(r["nodes"][at]["ranks"], json({i}));
  }
  EXPECT_NE(find_key(r, "pairs/mpi/sendrecv/bytes:1048576/nodes:" + bench_safe(own) + "-rank0+" +
                            bench_safe(own) + "-rank1"),
            nullptr)
      << r["benchmarks"].dump();
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
