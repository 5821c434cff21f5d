// The gate step over the launches' runner counters (harness/gate/runner_evidence.hpp): a foreign
// GPU process makes a load-made failure "runner busy" (exit 3) naming it; correctness failures
// still fail and passes still pass; a fatal RDMA counter fails the gate as DEGRADED-LINK without a
// baseline (also over a busy CPU); throttling reaches the failing key's reason.
#include <gtest/gtest.h>

#include "harness/cluster/node_actions.hpp"
#include "harness/gate/runner_evidence.hpp"

namespace fabricgate::gate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

counters::RunnerCounters with_foreign_process() {
  counters::RunnerCounters c;
  c.present = true;
  c.wall_s = 12;
  c.snapshot_ms = 4.5;
  c.processes_checked = true;
  counters::DeviceCounters g;
  g.kind = "gpu";
  g.device = "GPU 0";
  g.identity = "GPU-aaaa";
  c.devices = {g};
  c.foreign_processes = {{4242, "python3", 0, "GPU-aaaa", 3ULL << 30, 97.0, "start+end"}};
  return c;
}

counters::RunnerCounters with_link_downed() {
  counters::RunnerCounters c;
  c.present = true;
  c.wall_s = 12;
  counters::DeviceCounters host;
  host.kind = "host";
  host.device = "node-7";
  counters::DeviceCounters port;
  port.kind = "rdma";
  port.device = "mlx5_1";
  port.port = 1;
  port.counters = {{"link_downed", 0, 1, 1, ""}};
  c.devices = {host, port};
  return c;
}

RunRecord run_with(counters::RunnerCounters counters, const std::string& id = "r1") {
  RunRecord r;
  r.run_id = id;
  r.platform = "h200";
  r.runner_counters = std::move(counters);
  return r;
}

verdict::Comparison failing(verdict::Verdict v) {
  verdict::Comparison c;
  c.run_id = "r1";
  c.has_baseline = true;
  verdict::KeyComparison k;
  k.key = "p2p/copy/h2d/bytes:1073741824";
  k.verdict = v;
  k.reason = "-14 % below the band";
  c.keys = {k};
  c.exit_code = ExitCode::gate_failure;
  return c;
}

TEST(counters_runner_evidence, foreign_gpu_process_makes_a_regression_runner_busy) {
  verdict::Comparison c = failing(verdict::Verdict::regression);
  apply_runner_evidence(c, run_with(with_foreign_process()), {});
  EXPECT_EQ(c.exit_code, ExitCode::infra_failure);
  EXPECT_TRUE(c.runner_busy);
  EXPECT_TRUE(c.runner_evidence.foreign_load);
  EXPECT_TRUE(c.runner_evidence.busy_gpu);
  ASSERT_EQ(c.runner_evidence.foreign_processes.size(), 1U);
  EXPECT_EQ(c.runner_evidence.foreign_processes[0].launch, "r1");
  EXPECT_EQ(c.runner_evidence.snapshot_ms_max, 4.5);
  const std::string head = c.headline();
  EXPECT_NE(head.find("RUNNER BUSY, NOT JUDGED"), std::string::npos) << head;
  EXPECT_NE(head.find("pid 4242 (python3) on GPU 0, 3.0 GiB, 97 % of the SMs"), std::string::npos)
      << head;
}

TEST(counters_runner_evidence, report_lines_name_process_gpu_and_launch) {
  verdict::Comparison c = failing(verdict::Verdict::regression);
  apply_runner_evidence(c, run_with(with_foreign_process()), {});
  const std::vector<std::string> lines = c.runner_evidence.lines();
  ASSERT_EQ(lines.size(), 1U);
  EXPECT_EQ(
      lines[0],
      "GPU 0 ran a compute process that is not the launch's: pid 4242 (python3), 3.0 GiB, 97 % "
      "of the SMs in launch r1 (seen at start+end): runner busy, not judged");
}

TEST(counters_runner_evidence, foreign_process_in_a_confirmation_launch_counts_too) {
  verdict::Comparison c = failing(verdict::Verdict::regression);
  counters::RunnerCounters quiet = with_foreign_process();
  quiet.foreign_processes.clear();
  apply_runner_evidence(c, run_with(quiet), {run_with(with_foreign_process(), "r1-confirm")});
  EXPECT_EQ(c.exit_code, ExitCode::infra_failure);
  ASSERT_EQ(c.runner_evidence.foreign_processes.size(), 1U);
  EXPECT_EQ(c.runner_evidence.foreign_processes[0].launch, "r1-confirm");
}

TEST(counters_runner_evidence, wrong_results_still_fail_and_a_pass_stays_a_pass) {
  verdict::Comparison wrong = failing(verdict::Verdict::wrong_results);
  apply_runner_evidence(wrong, run_with(with_foreign_process()), {});
  EXPECT_EQ(wrong.exit_code, ExitCode::gate_failure);
  EXPECT_FALSE(wrong.runner_busy);
  EXPECT_TRUE(wrong.runner_evidence.foreign_load);
  EXPECT_FALSE(wrong.runner_evidence.busy_gpu);

  verdict::Comparison pass = failing(verdict::Verdict::pass);
  pass.exit_code = ExitCode::pass;
  apply_runner_evidence(pass, run_with(with_foreign_process()), {});
  EXPECT_EQ(pass.exit_code, ExitCode::pass);
  EXPECT_FALSE(pass.runner_busy);
}

TEST(counters_runner_evidence, no_foreign_process_leaves_a_regression_failing) {
  verdict::Comparison c = failing(verdict::Verdict::regression);
  counters::RunnerCounters quiet = with_foreign_process();
  quiet.foreign_processes.clear();
  apply_runner_evidence(c, run_with(quiet), {});
  EXPECT_EQ(c.exit_code, ExitCode::gate_failure);
  EXPECT_FALSE(c.runner_busy);
  EXPECT_FALSE(c.runner_evidence.foreign_load);
  EXPECT_TRUE(c.runner_evidence.recorded);
}

TEST(counters_runner_evidence, degraded_link_fails_a_passing_run_without_a_baseline) {
  verdict::Comparison c = failing(verdict::Verdict::pass);
  c.has_baseline = false;
  c.exit_code = ExitCode::pass;
  apply_runner_evidence(c, run_with(with_link_downed()), {});
  EXPECT_EQ(c.exit_code, ExitCode::gate_failure);
  ASSERT_EQ(c.cluster_findings.size(), 1U);
  const verdict::ClusterFinding& f = c.cluster_findings[0];
  EXPECT_EQ(f.id, "DEGRADED-LINK");
  EXPECT_TRUE(f.fails_gate);
  EXPECT_EQ(f.node, "node-7");
  EXPECT_EQ(f.field, "mlx5_1/1 link_downed");
  EXPECT_EQ(f.text, "node-7 mlx5_1 port 1: link_downed +1 during the launch");
  EXPECT_EQ(c.failing_findings(), 1U);
}

TEST(counters_runner_evidence, degraded_link_plans_a_drain_of_its_host) {
  RunRecord run = run_with(with_link_downed());
  NodeRecord node;
  node.name = "node-7";
  node.hostname = "node-7";
  run.nodes = {node};
  verdict::Comparison c = failing(verdict::Verdict::pass);
  c.exit_code = ExitCode::pass;
  apply_runner_evidence(c, run, {});
  ASSERT_EQ(c.node_actions.size(), 4U);  // the scontrol line and kubectl cordon, label, taint
  EXPECT_EQ(c.node_actions[2],
            "kubernetes: kubectl label node node-7 fabricgate/finding=degraded-link --overwrite");
  EXPECT_NE(c.node_actions[0].find("scontrol update NodeName=node-7 State=DRAIN"),
            std::string::npos)
      << c.node_actions[0];
  EXPECT_NE(c.node_actions[0].find("DEGRADED-LINK"), std::string::npos) << c.node_actions[0];
}

TEST(counters_runner_evidence, degraded_link_overrides_a_busy_cpu) {
  verdict::Comparison c = failing(verdict::Verdict::regression);
  c.runner_busy = true;  // what mark_busy_runner decided from PSI
  c.exit_code = ExitCode::infra_failure;
  apply_runner_evidence(c, run_with(with_link_downed()), {});
  EXPECT_FALSE(c.runner_busy);
  EXPECT_EQ(c.exit_code, ExitCode::gate_failure);
}

TEST(counters_runner_evidence, same_fault_in_two_launches_is_one_finding) {
  verdict::Comparison c = failing(verdict::Verdict::pass);
  c.exit_code = ExitCode::pass;
  apply_runner_evidence(c, run_with(with_link_downed()),
                        {run_with(with_link_downed(), "r1-confirm")});
  EXPECT_EQ(c.cluster_findings.size(), 1U);
}

TEST(counters_runner_evidence, throttling_reaches_the_failing_keys_reason) {
  counters::RunnerCounters hot = with_foreign_process();
  hot.foreign_processes.clear();
  hot.devices[0].events = {"hw_thermal_slowdown", "gpu_idle"};
  hot.devices[0].counters = {{"thermal_violation_ns", 0, 1'500'000'000ULL, 1'500'000'000ULL, ""}};
  verdict::Comparison c = failing(verdict::Verdict::regression);
  c.keys.push_back(c.keys[0]);
  c.keys[1].key = "p2p/other";
  c.keys[1].verdict = verdict::Verdict::pass;
  c.keys[1].reason = "within the band";
  apply_runner_evidence(c, run_with(hot), {});
  EXPECT_EQ(c.keys[0].reason,
            "-14 % below the band. The GPU was throttled during the launch: GPU 0 (GPU-aaaa): HW "
            "thermal slowdown; thermal-limited 1.5 s of the 12.0 s launch");
  EXPECT_EQ(c.keys[1].reason, "within the band");
  ASSERT_EQ(c.runner_evidence.throttling.size(), 1U);
  EXPECT_EQ(c.runner_evidence.throttling[0].rfind("r1: GPU 0", 0), 0U);
  EXPECT_EQ(c.exit_code, ExitCode::gate_failure);
}

TEST(counters_runner_evidence, runs_without_counters_change_nothing) {
  verdict::Comparison c = failing(verdict::Verdict::regression);
  apply_runner_evidence(c, run_with({}), {});
  EXPECT_EQ(c.exit_code, ExitCode::gate_failure);
  EXPECT_FALSE(c.runner_evidence.recorded);
  EXPECT_TRUE(c.cluster_findings.empty());
}

TEST(counters_runner_evidence, nvml_absent_is_named) {
  counters::RunnerCounters c;
  c.present = true;
  c.unread = {{"nvml", "counters not read: NVML not found: libnvidia-ml.so.1: cannot open"}};
  EXPECT_TRUE(collect_runner_evidence(run_with(c), {}).unread.empty());  // a CPU runner: the norm
  RunRecord gpu_machine = run_with(c);
  gpu_machine.fingerprint.identity = {{"gpu_count", 8}};
  const verdict::RunnerEvidence e = collect_runner_evidence(gpu_machine, {});
  ASSERT_EQ(e.unread.size(), 1U);
  EXPECT_EQ(e.unread[0], "r1: counters not read: NVML not found: libnvidia-ml.so.1: cannot open");
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::gate
