// `fabricgate nodes` and the reports' node actions on a committed run of the CI Slurm cluster
// (tests/data/slurm/: the shipped nightly.sbatch on ci/slurm/cluster's three nodes, fgsnode2
// reporting driver 470.00.00 through FABRICGATE_TEST_NODE_FACT_OVERRIDE; job-node-mismatch.out is
// that job's output). Runs everywhere: no cluster needed, nothing drained. The drain itself is
// tested against the real slurmctld in slurm_cluster_test.cpp.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
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

const fs::path kRun =
    fs::path(FABRICGATE_SOURCE_DIR) / "tests/data/slurm/20261201T091826Z-slurm-cpu-default";
const std::string kDrain =
    "scontrol update NodeName=fgsnode2 State=DRAIN Reason=\"fabricgate: NODE-MISMATCH driver (run "
    "20261201T091826Z-slurm-cpu-default, severity drain)\"";

TEST(NodesCli, DryRunPrintsTheDrainAndKubectlLinesForTheBlamedNode) {
  const auto text = run_job({FABRICGATE_CLI, "nodes", kRun.string()}, 60);
  EXPECT_EQ(text.exit_code, 1) << text.output;  // a node is blamed
  EXPECT_NE(
      text.output.find("node fgsnode2:\n  finding: node fgsnode2: driver \"470.00.00\" differs"),
      std::string::npos)
      << text.output;
  EXPECT_NE(text.output.find("  slurm:      " + kDrain + "\n"), std::string::npos) << text.output;
  EXPECT_NE(
      text.output.find(
          "kubectl taint node fgsnode2 fabricgate/finding=node-mismatch:NoSchedule --overwrite"),
      std::string::npos)
      << text.output;
  EXPECT_NE(text.output.find("dry run: nothing changed"), std::string::npos) << text.output;
  EXPECT_EQ(text.output.find("fgsnode0"), std::string::npos) << text.output;

  const auto slurm = run_job({FABRICGATE_CLI, "nodes", kRun.string(), "--format", "slurm"}, 60);
  EXPECT_EQ(slurm.output, kDrain + "\n");
  const auto k8s = run_job({FABRICGATE_CLI, "nodes", kRun.string(), "--format", "kubernetes"}, 60);
  EXPECT_EQ(k8s.output.rfind("kubectl cordon fgsnode2\nkubectl label node fgsnode2 ", 0), 0u)
      << k8s.output;

  const auto js = run_job({FABRICGATE_CLI, "nodes", kRun.string(), "--format", "json"}, 60);
  EXPECT_EQ(js.exit_code, 1);
  const json doc = json::parse(js.output);
  EXPECT_EQ(doc["dry_run"], true);
  ASSERT_EQ(doc["actions"].size(), 1u) << js.output;
  EXPECT_EQ(doc["actions"][0]["node"], "fgsnode2");
  EXPECT_EQ(
      doc["actions"][0]["slurm_argv"],
      json({"scontrol", "update", "NodeName=fgsnode2", "State=DRAIN",
            "Reason=fabricgate: NODE-MISMATCH driver (run 20261201T091826Z-slurm-cpu-default, "
            "severity drain)"}));
  EXPECT_EQ(doc["actions"][0]["severity"], "drain");
  EXPECT_NE(doc["actions"][0]["severity_why"].get<std::string>().find("a fact"), std::string::npos);
  EXPECT_NE(text.output.find("  severity:   drain (NODE-MISMATCH driver: "), std::string::npos)
      << text.output;
}

// The state of a file as far as "did a command write it" goes: absent, or its size and mtime.
std::string file_state(const fs::path& p) {
  std::error_code ec;
  if (!fs::exists(p, ec)) return "absent";
  return std::to_string(fs::file_size(p, ec)) + "@" +
         std::to_string(fs::last_write_time(p, ec).time_since_epoch().count());
}

TEST(NodesCli, ReportsCarryTheNodeActions) {
  // compare records the run in a store; by default the one beside the run's results root, which
  // for this committed run is tests/data/: the source tree must not collect a database, so the
  // compares record into a scratch store, and the default location is checked untouched.
  const fs::path scratch =
      fs::temp_directory_path() / ("fg-nodes-store-" + std::to_string(::getpid()) + ".sqlite");
  const std::string store = "sqlite:" + scratch.string();
  const fs::path default_store = kRun.parent_path().parent_path() / "fabricgate.sqlite";
  const std::string default_before = file_state(default_store);
  const auto md = run_job(
      {FABRICGATE_CLI, "compare", kRun.string(), "--format", "markdown", "--store", store}, 60);
  EXPECT_EQ(md.exit_code, 1) << md.output;
  EXPECT_NE(md.output.find("```sh\nslurm: " + kDrain + "\nkubernetes: kubectl cordon fgsnode2\n"),
            std::string::npos)
      << md.output;
  const auto console = run_job({FABRICGATE_CLI, "compare", kRun.string(), "--store", store}, 60);
  EXPECT_NE(
      console.output.find(
          "node actions (fabricgate nodes RUN --drain runs the Slurm lines):\n  slurm: " + kDrain),
      std::string::npos)
      << console.output;
  const auto js =
      run_job({FABRICGATE_CLI, "compare", kRun.string(), "--format", "json", "--store", store}, 60);
  EXPECT_EQ(json::parse(js.output.substr(js.output.find('{')))["node_actions"][0],
            "slurm: " + kDrain);
  EXPECT_TRUE(fs::exists(scratch)) << "the runs were recorded in the scratch store";
  EXPECT_EQ(file_state(default_store), default_before) << default_store << " was written by a test";
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(scratch.string() + suffix);
}

// The committed run with the blamed node's host name made hostile: refused before anything runs
// (exit 2, the file and field named), for a dry run and for --drain alike.
TEST(NodesCli, AHostileNodeNameRefusesTheRun) {
  const fs::path dir = fs::temp_directory_path() / ("fg-nodes-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  json run = load_json_file(kRun / "run.json", "fabricgate.run/1");
  for (const std::string bad :
       {"fgsnode2; scontrol shutdown", "fgsnode2$(reboot)", "fgs node2", "fgsnode2\x1b[2J"}) {
    run["nodes"][2]["hostname"] = bad;
    run["nodes"][2]["name"] = bad;
    const fs::path file = dir / "run.json";
    write_json_atomically(file, run);
    for (const bool drain : {false, true}) {
      std::vector<std::string> argv = {FABRICGATE_CLI, "nodes", file.string()};
      if (drain) argv.push_back("--drain");
      const auto r = run_job(argv, 60);
      EXPECT_EQ(r.exit_code, 2) << bad << "\n" << r.output;
      EXPECT_NE(r.output.find(file.string()), std::string::npos) << r.output;
      EXPECT_NE(r.output.find("/nodes/2/hostname"), std::string::npos) << r.output;
      EXPECT_NE(r.output.find("nothing was drained"), std::string::npos) << r.output;
      EXPECT_EQ(r.output.find("scontrol update"), std::string::npos) << r.output;
      EXPECT_EQ(r.output.find('\x1b'), std::string::npos) << r.output;  // shown escaped, never raw
    }
    // The report still renders, with the action refused as a shell comment.
    const auto md = run_job({FABRICGATE_CLI, "compare", file.string(), "--format", "markdown"}, 60);
    EXPECT_NE(md.output.find("# no action for NODE-MISMATCH node fgs"), std::string::npos)
        << md.output;
    EXPECT_EQ(md.output.find("scontrol update"), std::string::npos) << md.output;
  }
  fs::remove_all(dir);
}

// A fact a run file carries (here the blamed node's driver) reaches the finding's text: with a
// line break, a GitHub workflow command, an OSC title sequence and BEL in it, no output line of
// `nodes` starts a workflow command or carries a raw control character (issue 52, round five).
TEST(NodesCli, AHostileFindingDetailIsShownEscaped) {
  const fs::path dir = fs::temp_directory_path() / ("fg-nodes-det-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  json run = load_json_file(kRun / "run.json", "fabricgate.run/1");
  run["nodes"][2]["facts"]["driver"] = "470.00.00\n::error file=a.cpp::pwned\x1b]0;owned\x07\r";
  const fs::path file = dir / "run.json";
  write_json_atomically(file, run);
  for (const std::string format : {"text", "slurm", "kubernetes"}) {
    const auto r = run_job({FABRICGATE_CLI, "nodes", file.string(), "--format", format}, 60);
    EXPECT_EQ(r.exit_code, 1) << format << "\n" << r.output;  // still blamed
    EXPECT_EQ(r.output.find("\n::"), std::string::npos) << format << "\n" << r.output;
    EXPECT_NE(r.output.rfind("::", 0), 0u) << r.output;
    for (const char raw : {'\x1b', '\x07', '\r'})
      EXPECT_EQ(r.output.find(raw), std::string::npos) << format << "\n" << r.output;
  }
  const auto text = run_job({FABRICGATE_CLI, "nodes", file.string()}, 60);
  EXPECT_NE(text.output.find("470.00.00\\n::error file=a.cpp::pwned\\x1b]0;owned\\x07\\r"),
            std::string::npos)
      << text.output;  // shown, escaped
  fs::remove_all(dir);
}

// Slurm's reserved words and node lists are refused like any unsafe name: NodeName=ALL would
// drain the whole cluster. Exit 2 before anything runs, dry run or --drain.
TEST(NodesCli, AReservedWordOrNodeListIsNoNodeName) {
  const fs::path dir = fs::temp_directory_path() / ("fg-nodes-all-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  json run = load_json_file(kRun / "run.json", "fabricgate.run/1");
  for (const std::string bad : {"ALL", "all", "All", "DEFAULT", "none", "fgsnode[0-2]",
                                "fgsnode0,fgsnode1", "fgsnode*", "-fgsnode2"}) {
    run["nodes"][2]["hostname"] = bad;
    run["nodes"][2]["name"] = bad;
    const fs::path file = dir / "run.json";
    write_json_atomically(file, run);
    for (const std::string format : {"text", "slurm", "kubernetes"}) {
      const auto r = run_job({FABRICGATE_CLI, "nodes", file.string(), "--format", format}, 60);
      EXPECT_EQ(r.exit_code, 2) << bad << "\n" << r.output;
      EXPECT_NE(r.output.find("reserved word"), std::string::npos) << r.output;
      EXPECT_EQ(r.output.find("scontrol update"), std::string::npos) << r.output;
      EXPECT_EQ(r.output.find("kubectl"), std::string::npos) << r.output;
    }
  }
  fs::remove_all(dir);
}

// --drain asks Slurm first: `scontrol show node NAME` must describe exactly that node, for every
// blamed node, before the first `scontrol update`. The scontrol here is a stand-in on PATH that
// logs each call and knows only fgsnode2 (the real controller: slurm_cluster_test.cpp).
TEST(NodesCli, DrainOnlyNodesSlurmConfirms) {
  const fs::path dir = fs::temp_directory_path() / ("fg-nodes-ask-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "bin");
  const fs::path log = dir / "scontrol.log";
  {
    std::ofstream sh(dir / "bin/scontrol");
    sh << "#!/bin/sh\n"
          "echo \"$*\" >> '"
       << log.string()
       << "'\n"
          "if [ \"$1 $2 $3\" = \"--oneliner show node\" ]; then\n"
          "  case \"$4\" in\n"
          "    fgsnode2) echo \"NodeName=fgsnode2 Arch=x86_64 State=IDLE\"; exit 0;;\n"
          "    fgsnode3) echo \"NodeName=fgsnode30 Arch=x86_64 State=IDLE\"; exit 0;;\n"
          "    *) echo \"Node $4 not found\"; exit 1;;\n"
          "  esac\n"
          "fi\n"
          "exit 0\n";
  }
  fs::permissions(dir / "bin/scontrol", fs::perms::owner_all);
  const std::string path = "PATH=" + (dir / "bin").string() + ":" + std::getenv("PATH");
  json run = load_json_file(kRun / "run.json", "fabricgate.run/1");
  const fs::path file = dir / "run.json";
  const auto drain = [&] {
    fs::remove(log);
    write_json_atomically(file, run);
    return run_job({"env", path, FABRICGATE_CLI, "nodes", file.string(), "--drain"}, 60);
  };
  // Known by that exact name: confirmed, then drained.
  auto r = drain();
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("drained fgsnode2"), std::string::npos) << r.output;
  std::ifstream in(log);
  std::stringstream calls;
  calls << in.rdbuf();
  // Asked first; then the allocation's other nodes (the drain budget counts those Slurm holds
  // drained for fabricgate); the update last.
  EXPECT_EQ(calls.str().rfind("--oneliner show node fgsnode2\n", 0), 0u) << calls.str();
  EXPECT_NE(calls.str().find("\nupdate NodeName=fgsnode2 "), std::string::npos) << calls.str();
  EXPECT_EQ(calls.str().find("update "), calls.str().rfind("update ")) << calls.str();
  EXPECT_GT(calls.str().find("update "), calls.str().rfind("show node")) << calls.str();
  // Unknown to this cluster, or answered for another node: nothing is updated.
  for (const std::string other : {"fgsnode9", "fgsnode3", "gpu-node-17.example"}) {
    run["nodes"][2]["hostname"] = other;
    run["nodes"][2]["name"] = other;
    r = drain();
    EXPECT_EQ(r.exit_code, 2) << other << "\n" << r.output;
    EXPECT_NE(r.output.find("nothing was drained"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("drained " + other), std::string::npos) << r.output;
    std::ifstream again(log);
    std::stringstream seen;
    seen << again.rdbuf();
    EXPECT_EQ(seen.str(), "--oneliner show node " + other + "\n") << seen.str();
  }
  fs::remove_all(dir);
}

// The drain budget (policies/nodes.json, harness/cluster/node_policy.hpp) with a stand-in
// scontrol: a node Slurm holds drained for fabricgate counts, one someone else drained does not,
// and a run that would go over the budget drains none (FABRIC-WIDE, exit 1, no update made).
TEST(NodesCli, ADrainBudgetStopsAFabricWideDrain) {
  const fs::path dir =
      fs::temp_directory_path() / ("fg-nodes-budget-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "bin");
  const fs::path log = dir / "scontrol.log";
  const auto stand_in = [&](const std::string& fgsnode0_reason) {
    std::ofstream sh(dir / "bin/scontrol");
    sh << "#!/bin/sh\n"
          "echo \"$*\" >> '"
       << log.string()
       << "'\n"
          "if [ \"$1 $2 $3\" = \"--oneliner show node\" ]; then\n"
          "  case \"$4\" in\n"
          "    fgsnode0) echo \"NodeName=fgsnode0 Arch=x86_64 State=IDLE+DRAIN Reason="
       << fgsnode0_reason
       << " [root@2026-12-06T10:00:00]\"; exit 0;;\n"
          "    fgsnode1|fgsnode2) echo \"NodeName=$4 Arch=x86_64 State=IDLE\"; exit 0;;\n"
          "    *) echo \"Node $4 not found\"; exit 1;;\n"
          "  esac\n"
          "fi\n"
          "exit 0\n";
    sh.close();
    fs::permissions(dir / "bin/scontrol", fs::perms::owner_all);
  };
  const std::string path = "PATH=" + (dir / "bin").string() + ":" + std::getenv("PATH");
  const auto drain = [&] {
    fs::remove(log);
    return run_job({"env", path, FABRICGATE_CLI, "nodes", (kRun / "run.json").string(), "--drain"},
                   60);
  };
  const auto calls = [&] {
    std::ifstream in(log);
    std::stringstream seen;
    seen << in.rdbuf();
    return seen.str();
  };
  // fgsnode0 held drained for fabricgate: fgsnode2 would make two of three.
  stand_in("fabricgate: SUSPECT-NODE (run earlier)");
  auto r = drain();
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("FABRIC-WIDE: this run would leave 2 of the allocation's 3 node(s)"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("already drained by fabricgate: fgsnode0"), std::string::npos);
  EXPECT_NE(r.output.find("nothing was drained"), std::string::npos) << r.output;
  EXPECT_EQ(calls().find("update "), std::string::npos) << calls();
  // Drained by someone else: not fabricgate's to count; fgsnode2 is drained.
  stand_in("disk replacement");
  r = drain();
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_EQ(r.output.find("FABRIC-WIDE"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("drained fgsnode2"), std::string::npos) << r.output;
  EXPECT_NE(calls().find("update NodeName=fgsnode2 State=DRAIN"), std::string::npos) << calls();
  // A policy of the working directory with no node to spare: even the dry run says FABRIC-WIDE.
  fs::create_directories(dir / "work/policies");
  std::ofstream(dir / "work/policies/nodes.json")
      << R"({"schema": "fabricgate.nodes/1", "drain_budget": {"share": 0.1, "min_nodes": 0}})";
  const auto dry = run_job({"sh", "-c",
                            "cd '" + (dir / "work").string() + "' && '" + FABRICGATE_CLI +
                                "' nodes '" + (kRun / "run.json").string() + "' --format json"},
                           60);
  EXPECT_EQ(dry.exit_code, 1) << dry.output;
  const json plan = json::parse(dry.output.substr(dry.output.find('{')));
  EXPECT_EQ(plan["fabric_wide"]["would_drain"], json::array({"fgsnode2"})) << dry.output;
  EXPECT_EQ(plan["fabric_wide"]["budget"], 0);
  EXPECT_TRUE(plan["actions"].empty());
  // A policy that is not one: exit 2 naming the file and field.
  std::ofstream(dir / "work/policies/nodes.json")
      << R"({"schema": "fabricgate.nodes/1", "drain_budget": {"share": 0.9, "min_nodes": 1}})";
  const auto bad = run_job({"sh", "-c",
                            "cd '" + (dir / "work").string() + "' && '" + FABRICGATE_CLI +
                                "' nodes '" + (kRun / "run.json").string() + "'"},
                           60);
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("/drain_budget/share"), std::string::npos) << bad.output;
  fs::remove_all(dir);
}

TEST(NodesCli, ARunThatBlamesNobodyExitsZero) {
  const fs::path dir = fs::temp_directory_path() / ("fg-nodes-ok-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  json run = load_json_file(kRun / "run.json", "fabricgate.run/1");
  run["nodes"][2]["facts"] = run["nodes"][0]["facts"];
  write_json_atomically(dir / "run.json", run);
  const auto r = run_job({FABRICGATE_CLI, "nodes", (dir / "run.json").string(), "--drain"}, 60);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("no node is blamed by this run"), std::string::npos) << r.output;
  fs::remove_all(dir);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
