// Node actions: the Slurm drain and Kubernetes lines for blamed nodes, and the names no command
// may be built from (shell metacharacters, spaces, control characters from a hostile run.json).
#include "harness/cluster/node_actions.hpp"

#include <gtest/gtest.h>

#include "harness/cluster/outliers.hpp"

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

NodeRecord node(const std::string& name, const std::string& driver,
                const std::string& hostname = "") {
  NodeRecord n;
  n.name = name;
  n.hostname = hostname.empty() ? name : hostname;
  n.facts = {{"driver", driver}, {"nccl", "2.28.3"}};
  return n;
}

verdict::ClusterFinding suspect(const std::string& name) {
  return {"SUSPECT-NODE",
          true,
          name,
          "",
          "node " + name + ": its pairs run below 0.75x the median",
          ""};
}

// A host outside the fleet (runner_split.hpp) is the node's finding under every --gate: its
// drain line is planned even when the finding does not fail the job (--gate change).
TEST(NodeActions, AHostOutsideTheFleetIsPlannedWhateverTheGateAsked) {
  const verdict::ClusterFinding outlier{
      "HOST-OUTLIER",
      false,
      "gpu-node-7",
      "3f2a9c01b7e4",
      "HOST-OUTLIER host 3f2a9c01b7e4 (gpu-node-7): 2 key(s) outside the fleet",
      ""};
  const cluster::NodeActionPlan plan = cluster::plan_node_actions({outlier}, {}, "r1");
  ASSERT_EQ(plan.actions.size(), 1u);
  EXPECT_EQ(plan.actions.front().node, "gpu-node-7");
  // Seen in this run only: monitor, no drain line (issue 55: severity).
  EXPECT_EQ(plan.actions.front().reason, "fabricgate: HOST-OUTLIER (run r1, severity monitor)");
  EXPECT_FALSE(plan.actions.front().drains());
  EXPECT_TRUE(plan.actions.front().drain_argv.empty());
  // Its own level, from earlier sessions, outside the fleet too: confirmed, drained.
  verdict::ClusterFinding confirmed = outlier;
  confirmed.confirmed = true;
  const cluster::NodeActionPlan drained = cluster::plan_node_actions({confirmed}, {}, "r1");
  ASSERT_EQ(drained.actions.size(), 1u);
  EXPECT_TRUE(drained.actions.front().drains());
  EXPECT_EQ(drained.actions.front().reason, "fabricgate: HOST-OUTLIER (run r1, severity drain)");
  // No host name: nothing to act on.
  verdict::ClusterFinding nameless = outlier;
  nameless.node = "";
  EXPECT_TRUE(cluster::plan_node_actions({nameless}, {}, "r1").actions.empty());
}

TEST(NodeActions, MismatchWithAMajorityDrainsThatNode) {
  const std::vector<NodeRecord> nodes = {node("gpu-01", "580"), node("gpu-02", "580"),
                                         node("gpu-03", "570")};
  const cluster::NodeActionPlan plan = cluster::plan_node_actions(
      cluster::check_cluster_consistency(nodes), nodes, "20261201T0900Z-abc");
  ASSERT_EQ(plan.actions.size(), 1u);
  const cluster::NodeAction& a = plan.actions.front();
  EXPECT_EQ(a.node, "gpu-03");
  EXPECT_EQ(a.slurm_line,
            "scontrol update NodeName=gpu-03 State=DRAIN Reason=\"fabricgate: NODE-MISMATCH driver "
            "(run 20261201T0900Z-abc, severity drain)\"");
  EXPECT_EQ(a.drain_argv, (std::vector<std::string>{
                              "scontrol", "update", "NodeName=gpu-03", "State=DRAIN",
                              "Reason=fabricgate: NODE-MISMATCH driver (run 20261201T0900Z-abc, "
                              "severity drain)"}));
  EXPECT_EQ(a.resume_argv,
            (std::vector<std::string>{"scontrol", "update", "NodeName=gpu-03", "State=RESUME"}));
  ASSERT_EQ(a.kubectl_lines.size(), 3u);
  EXPECT_EQ(a.kubectl_lines[0], "kubectl cordon gpu-03");
  EXPECT_EQ(a.kubectl_lines[1],
            "kubectl label node gpu-03 fabricgate/finding=node-mismatch --overwrite");
  EXPECT_EQ(a.kubectl_lines[2],
            "kubectl taint node gpu-03 fabricgate/finding=node-mismatch:NoSchedule --overwrite");
  EXPECT_TRUE(plan.refused.empty());
}

TEST(NodeActions, TwoFindingsOnOneNodeMakeOneAction) {
  std::vector<NodeRecord> nodes = {node("gpu-01", "580"), node("gpu-02", "580"),
                                   node("gpu-03", "570")};
  nodes[2].facts["nccl"] = "2.21.5";
  auto findings = cluster::check_cluster_consistency(nodes);
  findings.push_back(suspect("gpu-03"));
  const cluster::NodeActionPlan plan = cluster::plan_node_actions(findings, nodes, "r1");
  ASSERT_EQ(plan.actions.size(), 1u);
  EXPECT_EQ(
      plan.actions[0].findings,
      (std::vector<std::string>{"NODE-MISMATCH driver", "NODE-MISMATCH nccl", "SUSPECT-NODE"}));
  EXPECT_EQ(plan.actions[0].reason,
            "fabricgate: NODE-MISMATCH driver, NODE-MISMATCH nccl, SUSPECT-NODE (run r1, severity "
            "drain)");
  EXPECT_EQ(plan.actions[0].details.size(), 3u);
}

TEST(NodeActions, NoMajorityBlamesNobody) {
  const std::vector<NodeRecord> nodes = {node("gpu-01", "580"), node("gpu-02", "570")};
  const cluster::NodeActionPlan plan =
      cluster::plan_node_actions(cluster::check_cluster_consistency(nodes), nodes, "r1");
  EXPECT_TRUE(plan.actions.empty());
  ASSERT_EQ(plan.unblamed.size(), 1u);
  EXPECT_NE(plan.unblamed[0].find("no majority"), std::string::npos);
}

TEST(NodeActions, WarningsAndOtherFindingsPlanNothing) {
  const std::vector<verdict::ClusterFinding> findings = {
      {"SLOW-PAIR", false, "a+b", "key", "pair a+b slow", ""},
      {"SUSPECT-NODE", false, "a", "", "a warning only", ""}};
  EXPECT_TRUE(cluster::plan_node_actions(findings, {}, "r1").empty());
}

// Names that would run a second command, split a word or hide in a terminal are refused, and
// nothing built from them appears in any line.
TEST(NodeActions, UnsafeNamesAreRefusedNotQuoted) {
  for (const std::string& bad :
       std::vector<std::string>{"gpu-01;reboot", "gpu 01", "$(id)", "gpu`x`", "-rf", "a\nb", "a\"b",
                                "a'b", "a|b", ".hidden", std::string(254, 'a')}) {
    const cluster::NodeActionPlan plan = cluster::plan_node_actions({suspect(bad)}, {}, "r1");
    EXPECT_TRUE(plan.actions.empty()) << bad;
    ASSERT_EQ(plan.refused.size(), 1u) << bad;
    EXPECT_TRUE(plan.refused[0].unsafe_name) << bad;
    for (const std::string& line : cluster::node_action_lines(plan)) {
      EXPECT_EQ(line.rfind("# no action for SUSPECT-NODE node ", 0), 0u) << line;
      EXPECT_EQ(line.find_first_of(";$`\"'|\n\\"), std::string::npos) << line;
    }
  }
  EXPECT_EQ(cluster::plan_node_actions({suspect("a\nb")}, {}, "r1").refused[0].node, "a\\x0ab");
}

// Slurm reads NodeName=ALL as every node and a hostlist as several: only one real node name may
// reach a drain or a kubectl line, in any spelling of a reserved word.
TEST(NodeActions, ReservedWordsAndNodeListsAreRefused) {
  for (const std::string& bad : std::vector<std::string>{
           "ALL", "all", "All", "aLl", "DEFAULT", "Default", "none", "NULL", "gpu[01-04]", "gpu[1]",
           "gpu01,gpu02", "gpu*", "gpu?", "-gpu01", "gpu01 ", "gpu01^", "gpu01=x"}) {
    EXPECT_FALSE(cluster::is_safe_node_name(bad)) << bad;
    const cluster::NodeActionPlan plan = cluster::plan_node_actions({suspect(bad)}, {}, "r1");
    EXPECT_TRUE(plan.actions.empty()) << bad;
    ASSERT_EQ(plan.refused.size(), 1u) << bad;
    EXPECT_TRUE(plan.refused[0].unsafe_name) << bad;
    for (const std::string& line : cluster::node_action_lines(plan)) {
      EXPECT_EQ(line.rfind("# ", 0), 0u) << line;  // a comment: no scontrol or kubectl line
      EXPECT_EQ(line.find("NodeName="), std::string::npos) << line;
    }
  }
  // Names that merely contain a reserved word are ordinary names.
  for (const char* good : {"allnode", "node-all", "default01", "none2"})
    EXPECT_TRUE(cluster::is_safe_node_name(good)) << good;
}

TEST(NodeActions, TheHostNameIsTheMachine) {
  // Two containers both called "localhost" are two nodes named after their lowest rank; a third
  // node has its own name: only that one is a machine an admin can address.
  std::vector<NodeRecord> nodes = {node("localhost-rank0", "580", "localhost"),
                                   node("localhost-rank1", "580", "localhost"),
                                   node("gpu-09", "570")};
  const cluster::NodeActionPlan plan =
      cluster::plan_node_actions({suspect("localhost-rank1"), suspect("gpu-09")}, nodes, "r1");
  ASSERT_EQ(plan.actions.size(), 1u);
  EXPECT_EQ(plan.actions[0].node, "gpu-09");
  ASSERT_EQ(plan.refused.size(), 1u);
  EXPECT_EQ(plan.refused[0].node, "localhost");
  EXPECT_NE(plan.refused[0].why.find("shared by 2 nodes"), std::string::npos);
  EXPECT_FALSE(plan.refused[0].unsafe_name);
}

TEST(NodeActions, EmulatedNodesAreNoMachine) {
  std::vector<NodeRecord> nodes = {node("box-node0", "580", "box"),
                                   node("box-node1", "580", "box")};
  for (auto& n : nodes) n.emulated = true;
  const cluster::NodeActionPlan plan =
      cluster::plan_node_actions({suspect("box-node1")}, nodes, "r1");
  EXPECT_TRUE(plan.actions.empty());
  ASSERT_EQ(plan.refused.size(), 1u);
  EXPECT_NE(plan.refused[0].why.find("emulated"), std::string::npos);
}

TEST(NodeActions, SlurmNamesThatAreNotKubernetesNamesGetNoKubectlLine) {
  verdict::ClusterFinding link{"DEGRADED-LINK",
                               true,
                               "GPU_Node7",
                               "mlx5_0/1 link_downed",
                               "GPU_Node7 mlx5_0 port 1: link_downed +3",
                               ""};
  const cluster::NodeActionPlan plan = cluster::plan_node_actions({link}, {}, "r1");
  ASSERT_EQ(plan.actions.size(), 1u);
  EXPECT_EQ(plan.actions[0].slurm_line.rfind("scontrol update NodeName=GPU_Node7 State=DRAIN", 0),
            0u);
  EXPECT_TRUE(plan.actions[0].kubectl_lines.empty());
}

TEST(NodeActions, ReasonKeepsOnlyShellQuietCharacters) {
  // A fact name from run.json reaches the Reason through the finding's field.
  const verdict::ClusterFinding f{
      "NODE-MISMATCH", true, "gpu-03", "nics\"; rm -rf / #$(x)`y`", "node gpu-03: nics differ", ""};
  const cluster::NodeActionPlan plan = cluster::plan_node_actions({f}, {}, "r1");
  ASSERT_EQ(plan.actions.size(), 1u);
  EXPECT_EQ(plan.actions[0].reason,
            "fabricgate: NODE-MISMATCH nics__ rm -rf / __(x)_y_ (run r1, severity drain)");
  EXPECT_EQ(cluster::shell_quiet_text(std::string(300, 'x')).size(), 200u);
}

TEST(NodeActions, NameRules) {
  EXPECT_TRUE(cluster::is_safe_node_name("gpu-node-01.cluster_a"));
  EXPECT_FALSE(cluster::is_safe_node_name(""));
  EXPECT_FALSE(cluster::is_safe_node_name("-x"));
  EXPECT_TRUE(cluster::is_kubernetes_node_name("ip-10-0-0-1.ec2.internal"));
  EXPECT_FALSE(cluster::is_kubernetes_node_name("Upper"));
  EXPECT_FALSE(cluster::is_kubernetes_node_name("under_score"));
  EXPECT_FALSE(cluster::is_kubernetes_node_name("dot."));
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {

// Severity per finding (issue 55): only a confirmed finding drains. A pair measurement of one run
// suggests a reboot, a late rank is watched; neither plans a Slurm or kubectl line, and the report
// line says which and why.
TEST(NodeActions, OnlyAConfirmedFindingDrains) {
  const verdict::ClusterFinding straggler{
      "STRAGGLER", true, "gpu-04", "", "rank 3 on gpu-04 is late", ""};
  const cluster::NodeActionPlan plan =
      cluster::plan_node_actions({suspect("gpu-03"), straggler}, {}, "r1");
  ASSERT_EQ(plan.actions.size(), 2u);
  EXPECT_EQ(plan.actions[0].severity, cluster::NodeSeverity::reboot_suggested);
  EXPECT_EQ(plan.actions[1].severity, cluster::NodeSeverity::monitor);
  for (const cluster::NodeAction& a : plan.actions) {
    EXPECT_FALSE(a.drains()) << a.node;
    EXPECT_TRUE(a.drain_argv.empty() && a.slurm_line.empty() && a.kubectl_lines.empty()) << a.node;
  }
  const std::vector<std::string> lines = cluster::node_action_lines(plan);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].rfind("# reboot-suggested gpu-03: SUSPECT-NODE: ", 0), 0u) << lines[0];
  EXPECT_EQ(lines[1].rfind("# monitor gpu-04: STRAGGLER: ", 0), 0u) << lines[1];
  EXPECT_STREQ(cluster::severity_name(
                   cluster::finding_severity({"DEGRADED-LINK", true, "n", "", "", ""}).severity),
               "drain");
  EXPECT_STREQ(cluster::severity_name(
                   cluster::finding_severity({"NODE-MISMATCH", true, "n", "", "", ""}).severity),
               "drain");
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
