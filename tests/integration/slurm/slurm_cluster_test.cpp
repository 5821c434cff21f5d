// The shipped nightly job on a real Slurm cluster: ci/slurm/cluster (munge, slurmctld, three
// slurmd in network namespaces with their own host names) must be running, started by .ci/run,
// which exports FABRICGATE_SLURM_DIR. The job goes through `sbatch --wait`, `fabricgate run`
// inside the allocation detects Slurm and starts the bench with `srun --mpi=pmix`, and the test
// reads what the job left: k, g, the node names, the launch line and the verdict. Then a job whose
// third node reports another driver fails the gate, and `fabricgate nodes --drain` drains that
// node in the real slurmctld; the test resumes it whatever happens. A job whose third node's rank
// runs under a CPU quota is named a STRAGGLER by node, in the job's output, its report and
// `fabricgate nodes --format slurm`.
// Without FABRICGATE_SLURM_DIR (a developer's machine) every test skips and says how to run it.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/json_file.hpp"
#include "mpi_job.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;
using testing::run_job;

const std::string kSource = FABRICGATE_SOURCE_DIR;
const std::string kCluster = kSource + "/ci/slurm/cluster";
const std::string kSbatch = kSource + "/ci/slurm/nightly.sbatch";
const std::string kSuites = kSource + "/tests/integration/slurm";
// ci/slurm/cluster's bridge: the ranks' TCP traffic stays on it.
constexpr const char* kClusterSubnet = "10.252.0.0/24";

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class SlurmCluster : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* state = std::getenv("FABRICGATE_SLURM_DIR");
    if (!state || !*state) {
      GTEST_SKIP() << "no Slurm cluster: run `ci/slurm/cluster start` as root and export "
                      "FABRICGATE_SLURM_DIR=/tmp/fabricgate-slurm (.ci/run does both)";
    }
    // A cluster was promised: from here on, anything missing is a failure, not a skip.
    const auto ping = cluster({"scontrol", "ping"}, 30);
    ASSERT_EQ(ping.exit_code, 0) << "FABRICGATE_SLURM_DIR=" << state
                                 << " but the controller does not answer:\n"
                                 << ping.output;
    // A node left drained or down (by a test killed before it resumed it) would keep the job
    // pending until the deadline: say so now instead.
    std::string states;
    for (int i = 0; i < 60; ++i) {
      states = cluster({"sinfo", "-h", "-N", "-o", "%N %T"}, 30).output;
      if (states == "fgsnode0 idle\nfgsnode1 idle\nfgsnode2 idle\n") break;
      ::usleep(500 * 1000);
    }
    ASSERT_EQ(states, "fgsnode0 idle\nfgsnode1 idle\nfgsnode2 idle\n")
        << "the cluster's nodes are not all idle";
    // The job's nodes must see this folder: they share the filesystem, not /tmp's per-node TmpFS.
    dir_ = fs::temp_directory_path() / ("fg-slurm-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty() && !HasFailure()) fs::remove_all(dir_);
  }

  // A Slurm client command where it reaches the controller (ci/slurm/cluster exec).
  static testing::JobResult cluster(std::vector<std::string> argv, int timeout_s) {
    argv.insert(argv.begin(), {kCluster, "exec"});
    return run_job(argv, timeout_s);
  }

  // The shipped sbatch with this build's CLI, the test suites and the geometry given; `env` adds
  // to the job's environment (sbatch exports the submitter's).
  testing::JobResult submit(int nodes, int tasks_per_node, const std::vector<std::string>& env = {},
                            const std::string& bench = FABRICGATE_BENCH,
                            const std::string& suite = kSuites + "/slurm_cpu.json") {
    std::vector<std::string> argv = {"env",
                                     std::string("FABRICGATE=") + FABRICGATE_CLI,
                                     "RESULTS=" + (dir_ / "results").string(),
                                     "FABRICGATE_SUITE=" + suite,
                                     "FABRICGATE_PAIRS_SUITE=" + kSuites + "/slurm_pairs.json",
                                     "FABRICGATE_RUN_ARGS=--bench " + bench +
                                         " --platform slurm-ci --baselines-dir " +
                                         (dir_ / "baselines").string() + " --lock " +
                                         (dir_ / "lock").string() + " --timeout 150",
                                     std::string("OMPI_MCA_btl_tcp_if_include=") + kClusterSubnet,
                                     "OMPI_MCA_btl=self,vader,tcp",
                                     "OMPI_MCA_pml=ob1"};
    argv.insert(argv.end(), env.begin(), env.end());
    // The header asks for 4 nodes x 8 GPUs, 8 CPUs per task: the command line overrides it for
    // a cluster of three CPU-only nodes, as a user of a smaller cluster would.
    const std::vector<std::string> sbatch = {"sbatch",
                                             "--wait",
                                             "--nodes=" + std::to_string(nodes),
                                             "--ntasks-per-node=" + std::to_string(tasks_per_node),
                                             "--gpus-per-node=0",
                                             "--cpus-per-task=1",
                                             "--time=5",
                                             "--chdir=" + dir_.string(),
                                             "--output=" + (dir_ / "job.out").string(),
                                             kSbatch};
    argv.insert(argv.end(), sbatch.begin(), sbatch.end());
    auto job = cluster(argv, 400);  // the job's own limit is 5 minutes
    job.output += "\n--- job.out ---\n" + slurp(dir_ / "job.out");
    return job;
  }

  // The run directory of `suite` under results/slurm-ci/.
  fs::path run_dir(const std::string& suite) const {
    const fs::path root = dir_ / "results" / "slurm-ci";
    if (!fs::exists(root)) return {};
    for (const auto& e : fs::directory_iterator(root)) {
      if (e.path().filename().string().find("-" + suite + "-") != std::string::npos)
        return e.path();
    }
    return {};
  }

  fs::path dir_;
};

void expect_nodes(const json& r, const std::vector<std::string>& names, int ranks_per_node) {
  EXPECT_EQ(r["complete"], true);
  EXPECT_EQ(r["launch"]["nodes"], names.size());
  EXPECT_EQ(r["launch"]["ranks_per_node"], ranks_per_node);
  EXPECT_EQ(r["launch"]["nodes_emulated"], false);
  ASSERT_EQ(r["nodes"].size(), names.size()) << r["nodes"].dump();
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(r["nodes"][i]["name"], names[i]) << r["nodes"].dump();
    EXPECT_EQ(r["nodes"][i]["hostname"], names[i]) << r["nodes"].dump();
    EXPECT_EQ(r["nodes"][i]["ranks"].size(), static_cast<std::size_t>(ranks_per_node));
  }
  for (const auto& rank : r["ranks"]) {
    // srun's block distribution: ranks fill a node before the next one.
    EXPECT_EQ(rank["node"],
              names[rank["rank"].get<std::size_t>() / static_cast<std::size_t>(ranks_per_node)])
        << rank.dump();
  }
  for (const auto& b : r["benchmarks"]) {
    EXPECT_EQ(b["status"], "ok") << b.dump();
    EXPECT_EQ(b.value("wrong_elements", 0), 0) << b["key"];
  }
}

void expect_srun_launch(const fs::path& dir, int ranks) {
  const json launch = load_json_file(dir / "launch.json", "fabricgate.launch/1");
  ASSERT_FALSE(launch["argv"].empty()) << launch.dump();
  EXPECT_EQ(launch["argv"][0], "srun") << launch.dump();
  EXPECT_EQ(launch["argv"][1], "--mpi=pmix") << launch.dump();
  EXPECT_NE(launch["argv"].dump().find("\"-n\",\"" + std::to_string(ranks) + "\""),
            std::string::npos)
      << launch.dump();
}

TEST_F(SlurmCluster, NightlySbatchGatesTwoNodesThroughSrun) {
  const auto job = submit(2, 2);
  ASSERT_EQ(job.exit_code, 0) << job.output;  // sbatch --wait exits with the job's status
  EXPECT_NE(job.output.find("fabricgate nightly: exit 0"), std::string::npos) << job.output;

  const fs::path main = run_dir("slurm-cpu");
  ASSERT_FALSE(main.empty()) << job.output;
  const json r = load_json_file(main / "run.json", "fabricgate.run/1");
  expect_nodes(r, {"fgsnode0", "fgsnode1"}, 2);  // k = 2, g = 2
  EXPECT_EQ(r["launch"]["nranks"], 4);
  expect_srun_launch(main, 4);
  EXPECT_EQ(r["fingerprint"]["environment"]["variables"].value("SLURM_JOB_NUM_NODES", ""), "2")
      << r["fingerprint"].dump();

  const fs::path pairs = run_dir("slurm-pairs");
  ASSERT_FALSE(pairs.empty()) << job.output;
  const json p = load_json_file(pairs / "run.json", "fabricgate.run/1");
  expect_nodes(p, {"fgsnode0", "fgsnode1"}, 1);
  expect_srun_launch(pairs, 2);
  bool pair_key = false;
  for (const auto& b : p["benchmarks"])
    pair_key = pair_key || b["key"] == "pairs/mpi/sendrecv/bytes:65536/nodes:fgsnode0+fgsnode1";
  EXPECT_TRUE(pair_key) << p["benchmarks"].dump();

  // The verdict, as the job's reports say it: no baseline yet, so a pass that says so, on two
  // real nodes without a finding.
  for (const fs::path& d : {main, pairs}) {
    const std::string md = slurp(d / "report.md");
    EXPECT_NE(md.find("2 nodes x "), std::string::npos) << md;
    EXPECT_EQ(md.find("emulated on one host"), std::string::npos) << md;
    EXPECT_EQ(md.find("NODE-MISMATCH"), std::string::npos) << md;
    EXPECT_TRUE(fs::exists(d / "junit.xml"));
  }
}

// Restores a drained node whatever the test did.
struct ResumeNode {
  std::string node;
  ~ResumeNode() {
    run_job({kCluster, "exec", "scontrol", "update", "NodeName=" + node, "State=RESUME"}, 30);
  }
};

std::string node_state(const std::string& node) {
  const auto r = run_job({kCluster, "exec", "scontrol", "show", "node", node}, 30);
  return r.output;
}

// `scontrol show node` until `pred` holds, for at most 30 s: slurmctld applies an update at once,
// but on a loaded 2-core box a node can show NOT_RESPONDING for a moment between pings.
template <typename Pred>
std::string wait_for_node(const std::string& node, Pred pred) {
  std::string state;
  for (int i = 0; i < 60; ++i) {
    state = node_state(node);
    if (pred(state)) break;
    ::usleep(500 * 1000);
  }
  return state;
}

bool drained(const std::string& state) {
  return state.find("State=IDLE+DRAIN") != std::string::npos;
}

TEST_F(SlurmCluster, DrainsTheNodeTheGateBlamesThenResumesIt) {
  // Node 2 (fgsnode2, rank 2) reports another driver through the bench's test override: 2 of 3
  // nodes agree, so the gate names fgsnode2 (NODE-MISMATCH fails the gate: the job exits 1).
  const auto job = submit(3, 1, {"FABRICGATE_TEST_NODE_FACT_OVERRIDE=2:driver=470.00.00"});
  ASSERT_EQ(job.exit_code, 1) << job.output;
  EXPECT_NE(job.output.find("CLUSTER FAIL NODE-MISMATCH: node fgsnode2: driver \"470.00.00\""),
            std::string::npos)
      << job.output;
  EXPECT_NE(job.output.find("fabricgate nightly: exit 1"), std::string::npos) << job.output;
  const fs::path main = run_dir("slurm-cpu");
  ASSERT_FALSE(main.empty()) << job.output;
  expect_nodes(load_json_file(main / "run.json", "fabricgate.run/1"),
               {"fgsnode0", "fgsnode1", "fgsnode2"}, 1);
  const std::string md = slurp(main / "report.md");
  EXPECT_NE(md.find("scontrol update NodeName=fgsnode2 State=DRAIN Reason=\"fabricgate: "
                    "NODE-MISMATCH driver"),
            std::string::npos)
      << md;

  ResumeNode resume{"fgsnode2"};
  // Dry run: the line, nothing changed.
  const auto dry = run_job({FABRICGATE_CLI, "nodes", main.string(), "--format", "slurm"}, 60);
  EXPECT_EQ(dry.exit_code, 1) << dry.output;
  EXPECT_EQ(dry.output.rfind("scontrol update NodeName=fgsnode2 State=DRAIN Reason=\"fabricgate: "
                             "NODE-MISMATCH driver (run ",
                             0),
            0u)
      << dry.output;
  EXPECT_EQ(std::count(dry.output.begin(), dry.output.end(), '\n'), 1) << dry.output;
  EXPECT_EQ(node_state("fgsnode2").find("DRAIN"), std::string::npos) << node_state("fgsnode2");

  const auto drain = cluster({FABRICGATE_CLI, "nodes", main.string(), "--drain"}, 60);
  EXPECT_EQ(drain.exit_code, 1) << drain.output;  // 1: a node was blamed (and drained)
  EXPECT_NE(drain.output.find("drained fgsnode2"), std::string::npos) << drain.output;
  const std::string state = wait_for_node("fgsnode2", drained);
  EXPECT_TRUE(drained(state)) << state;
  EXPECT_NE(state.find("Reason=fabricgate: NODE-MISMATCH driver (run " + main.filename().string() +
                       ", severity drain)"),
            std::string::npos)
      << state;
  for (const std::string other : {"fgsnode0", "fgsnode1"}) {
    EXPECT_EQ(node_state(other).find("DRAIN"), std::string::npos) << node_state(other);
  }
  const auto sinfo = cluster({"sinfo", "-h", "-n", "fgsnode2", "-o", "%T"}, 30);
  EXPECT_EQ(sinfo.output.rfind("drained", 0), 0u)
      << sinfo.output;  // "drained*" while a ping is late

  // The drain budget (policies/nodes.json: max(1, 10 %) of 3 nodes is 1): with fgsnode2 held
  // drained by fabricgate, a run that blames fgsnode1 would leave two of three out. It drains none
  // and says FABRIC-WIDE (exit 1), naming both; fgsnode1 stays in service.
  {
    ResumeNode resume_other{"fgsnode1"};
    json second = load_json_file(main / "run.json", "fabricgate.run/1");
    second["run_id"] = second["run_id"].get<std::string>() + "-second";
    second["nodes"][1]["facts"]["driver"] = "470.00.00";
    second["nodes"][2]["facts"]["driver"] = "";
    const fs::path dir = fs::temp_directory_path() / ("fg-budget-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    write_json_atomically(dir / "run.json", second);
    const auto wide =
        cluster({FABRICGATE_CLI, "nodes", (dir / "run.json").string(), "--drain"}, 60);
    EXPECT_EQ(wide.exit_code, 1) << wide.output;
    EXPECT_NE(wide.output.find("FABRIC-WIDE: this run would leave 2 of the allocation's 3 node(s)"),
              std::string::npos)
        << wide.output;
    EXPECT_NE(wide.output.find("would drain fgsnode1"), std::string::npos) << wide.output;
    EXPECT_NE(wide.output.find("already drained by fabricgate: fgsnode2"), std::string::npos)
        << wide.output;
    EXPECT_EQ(wide.output.find("drained fgsnode1"), std::string::npos) << wide.output;
    EXPECT_EQ(node_state("fgsnode1").find("DRAIN"), std::string::npos) << node_state("fgsnode1");
    fs::remove_all(dir);
  }

  // Resume (issue 55): fgsnode2 comes back only after two passing runs on it, recorded and
  // sealed in the store after it was drained; fgsnode0, drained by someone else, never does.
  ResumeNode resume_theirs{"fgsnode0"};
  ASSERT_EQ(
      cluster({"scontrol", "update", "NodeName=fgsnode0", "State=DRAIN", "Reason=disk replacement"},
              30)
          .exit_code,
      0);
  const fs::path dir = fs::temp_directory_path() / ("fg-resume-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string store = "sqlite:" + (dir / "store.sqlite").string();
  const auto resume_plan = [&](bool apply) {
    std::vector<std::string> argv{FABRICGATE_CLI, "nodes", "--resume", "--store", store};
    if (apply) argv.push_back("--apply");
    return cluster(argv, 60);
  };
  // The store must exist before --resume reads it: one run recorded now, fgsnode2 failing in it.
  ASSERT_EQ(run_job({FABRICGATE_CLI, "compare", main.string(), "--store", store}, 60).exit_code, 1);
  auto plan = resume_plan(false);
  EXPECT_EQ(plan.exit_code, 0) << plan.output;
  EXPECT_NE(plan.output.find("0 of 2 passing run(s) since"), std::string::npos) << plan.output;
  EXPECT_NE(plan.output.find(": stays drained"), std::string::npos) << plan.output;
  EXPECT_EQ(plan.output.find("fgsnode0"), std::string::npos) << plan.output;
  // Two passing runs of all three nodes (the driver agrees again), started after the drain.
  const auto later = std::chrono::system_clock::now() + std::chrono::seconds(2);
  const std::time_t t = std::chrono::system_clock::to_time_t(later);
  char started[32];
  std::strftime(started, sizeof started, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  for (int i = 0; i <= 2; ++i) {
    json pass = load_json_file(main / "run.json", "fabricgate.run/1");
    pass["run_id"] = pass["run_id"].get<std::string>() + "-pass-" + std::to_string(i);
    pass["started_at"] = started;
    pass["nodes"][2]["facts"]["driver"] = "";
    const fs::path run = dir / ("pass-" + std::to_string(i));
    fs::create_directories(run);
    write_json_atomically(run / "run.json", pass);
    // Run 0 is recorded unsealed (as anyone with write access to the store could): not counted.
    std::vector<std::string> argv{
        FABRICGATE_CLI, "compare",         run.string(),           "--store",
        store,          "--baselines-dir", (dir / "none").string()};
    if (i > 0) argv.push_back("--vouch");
    const auto recorded = run_job(argv, 60);
    EXPECT_EQ(recorded.exit_code, 0) << recorded.output;
    if (i == 0) {
      plan = resume_plan(false);
      EXPECT_NE(plan.output.find("0 of 2 passing run(s) since"), std::string::npos) << plan.output;
      EXPECT_NE(plan.output.find("(1 more unsealed: not counted)"), std::string::npos)
          << plan.output;
    }
    if (i == 1) {
      plan = resume_plan(false);
      EXPECT_NE(plan.output.find("1 of 2 passing run(s) since"), std::string::npos) << plan.output;
    }
  }
  plan = resume_plan(false);
  EXPECT_NE(plan.output.find("2 of 2 passing run(s) since"), std::string::npos) << plan.output;
  EXPECT_NE(plan.output.find("slurm: scontrol update NodeName=fgsnode2 State=RESUME"),
            std::string::npos)
      << plan.output;
  EXPECT_NE(plan.output.find("dry run: nothing changed"), std::string::npos) << plan.output;
  EXPECT_TRUE(drained(node_state("fgsnode2"))) << node_state("fgsnode2");
  const auto applied = resume_plan(true);
  EXPECT_EQ(applied.exit_code, 0) << applied.output;
  EXPECT_NE(applied.output.find("resumed fgsnode2"), std::string::npos) << applied.output;
  const std::string resumed = wait_for_node("fgsnode2", [](const std::string& st) {
    return st.find("State=IDLE ") != std::string::npos;
  });
  EXPECT_NE(resumed.find("State=IDLE "), std::string::npos) << resumed;
  EXPECT_NE(node_state("fgsnode0").find("DRAIN"), std::string::npos) << node_state("fgsnode0");
  fs::remove_all(dir);
}

// A CPU quota for the processes moved into it (cgroup v2 cpu.max, or v1's cpu controller), removed
// when the test ends (its processes have exited by then: sbatch --wait returned).
struct QuotaCgroup {
  fs::path dir;
  QuotaCgroup(int quota_us, int period_us) {
    const std::string name = "fabricgate-slurm-straggler-" + std::to_string(::getpid());
    if (fs::exists("/sys/fs/cgroup/cgroup.controllers")) {
      dir = fs::path("/sys/fs/cgroup") / name;
      fs::create_directory(dir);
      std::ofstream(dir / "cpu.max") << quota_us << " " << period_us << "\n";
    } else {
      dir = fs::path("/sys/fs/cgroup/cpu") / name;
      fs::create_directory(dir);
      std::ofstream(dir / "cpu.cfs_period_us") << period_us << "\n";
      std::ofstream(dir / "cpu.cfs_quota_us") << quota_us << "\n";
    }
  }
  ~QuotaCgroup() {
    std::error_code ec;
    for (int i = 0; i < 10 && fs::exists(dir, ec); ++i) {
      if (::rmdir(dir.c_str()) == 0) break;
      ::usleep(500 * 1000);
    }
  }
};

// The quota's effect, measured before it is used: CPU seconds per wall second of a child process
// that moves itself into `cgroup` and spins for 1 s (-1 when the child failed).
double cpu_share_in(const fs::path& cgroup) {
  int fds[2];
  if (::pipe(fds) != 0) return -1;
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(fds[0]);
    std::ofstream(cgroup / "cgroup.procs") << ::getpid() << "\n";
    const auto cpu = [] {
      timespec t{};
      ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
      return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
    };
    const auto start = std::chrono::steady_clock::now();
    const double cpu0 = cpu();
    while (std::chrono::steady_clock::now() - start < std::chrono::seconds(1)) {
    }
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double share = (cpu() - cpu0) / wall;
    const ssize_t ignored = ::write(fds[1], &share, sizeof share);
    (void)ignored;
    ::_exit(0);
  }
  ::close(fds[1]);
  double share = -1;
  if (child < 0 || ::read(fds[0], &share, sizeof share) != sizeof share) share = -1;
  ::close(fds[0]);
  if (child > 0) ::waitpid(child, nullptr, 0);
  return share;
}

TEST_F(SlurmCluster, NamesTheNodeOfARankSlowedByACpuQuota) {
  // One rank per node; fgsnode2's rank runs under a 5 % CPU quota (the bench's wrapper moves
  // itself into the cgroup on that node only, then execs the bench). 5 %, not 20 %: three ranks
  // share two cores here, and a quota slows only a process that would get more than it (on the
  // loaded CI box a spinning process gets a quarter of a core or less: docs/STRAGGLERS.md).
  // Measured first: a process in the cgroup gets at most about a twentieth of a core.
  QuotaCgroup quota(1000, 20000);
  const double share = cpu_share_in(quota.dir);
  ASSERT_GT(share, 0) << "the probe did not run";
  ASSERT_LT(share, 0.1) << "the quota does not hold a spinning process to ~5 %";
  const fs::path wrapper = dir_ / "slowed-bench";
  std::ofstream(wrapper) << "#!/bin/sh\n"
                         << "if [ \"$(uname -n)\" = fgsnode2 ]; then echo $$ >\""
                         << (quota.dir / "cgroup.procs").string() << "\"; fi\n"
                         << "exec " << FABRICGATE_BENCH << " \"$@\"\n";
  fs::permissions(wrapper, fs::perms::owner_all);

  const auto job = submit(3, 1, {}, wrapper.string(), kSuites + "/slurm_straggler.json");
  ASSERT_EQ(job.exit_code, 1) << job.output;  // STRAGGLER fails the gate
  EXPECT_NE(job.output.find("CLUSTER FAIL STRAGGLER: rank 2 (host fgsnode2"), std::string::npos)
      << job.output;
  const fs::path main = run_dir("slurm-straggler");
  ASSERT_FALSE(main.empty()) << job.output;
  const json r = load_json_file(main / "run.json", "fabricgate.run/1");
  expect_nodes(r, {"fgsnode0", "fgsnode1", "fgsnode2"}, 1);
  const std::string md = slurp(main / "report.md");
  EXPECT_NE(md.find("### Per-rank timings"), std::string::npos) << md;
  EXPECT_NE(md.find("| **2** | fgsnode2 |"), std::string::npos) << md;
  // A late rank in one run is watched, not drained (issue 55: severity monitor): the report
  // names the node and says so, with no DRAIN line.
  EXPECT_NE(md.find("# monitor fgsnode2: STRAGGLER: seen in this run only"), std::string::npos)
      << md;
  EXPECT_EQ(md.find("State=DRAIN"), std::string::npos) << md;

  // `fabricgate nodes` names that node, and only that one, as monitor: no Slurm line to paste.
  const auto text = run_job({FABRICGATE_CLI, "nodes", main.string()}, 60);
  EXPECT_EQ(text.exit_code, 1) << text.output;
  EXPECT_NE(text.output.find("node fgsnode2:"), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("  severity:   monitor (STRAGGLER: "), std::string::npos)
      << text.output;
  EXPECT_EQ(text.output.find("scontrol update"), std::string::npos) << text.output;
  const auto lines = run_job({FABRICGATE_CLI, "nodes", main.string(), "--format", "slurm"}, 60);
  EXPECT_EQ(lines.exit_code, 1) << lines.output;
  EXPECT_EQ(lines.output.find("scontrol"), std::string::npos) << lines.output;
  for (const std::string node : {"fgsnode0", "fgsnode1", "fgsnode2"})
    EXPECT_EQ(node_state(node).find("DRAIN"), std::string::npos) << node;
}

// A run that blames a node this cluster does not have, or names it with a reserved word: the real
// controller is asked (or nothing runs at all), and no node changes state.
TEST_F(SlurmCluster, DrainsNoNodeTheControllerDoesNotKnow) {
  const fs::path run_file = fs::path(FABRICGATE_SOURCE_DIR) /
                            "tests/data/slurm/20261201T091826Z-slurm-cpu-default/run.json";
  json run = load_json_file(run_file, "fabricgate.run/1");
  for (const std::string name : {"fgsnode9", "ALL", "all", "fgsnode[0-2]"}) {
    run["nodes"][2]["hostname"] = name;
    run["nodes"][2]["name"] = name;
    write_json_atomically(dir_ / "run.json", run);
    const auto r = cluster({FABRICGATE_CLI, "nodes", (dir_ / "run.json").string(), "--drain"}, 60);
    EXPECT_EQ(r.exit_code, 2) << name << "\n" << r.output;
    EXPECT_NE(r.output.find("nothing was drained"), std::string::npos) << r.output;
    for (const std::string node : {"fgsnode0", "fgsnode1", "fgsnode2"})
      EXPECT_EQ(node_state(node).find("DRAIN"), std::string::npos) << name << ": " << node;
  }
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
