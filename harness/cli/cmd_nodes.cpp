// fabricgate nodes RUN [--drain] [--format text|json|slurm|kubernetes|nvsentinel]: what an admin
// does about the nodes a run blames (SUSPECT-NODE, NODE-MISMATCH, STRAGGLER alone on its host,
// HOST-OUTLIER against its baseline's fleet): Slurm drain lines, Kubernetes cordon/label/taint
// lines and node-condition patches (harness/cluster/node_actions.hpp), or NVSentinel HealthEvents
// (harness/cluster/node_exports.hpp). A dry run by
// default; --drain runs each Slurm line's argument vector (scontrol, no shell) and reports what
// happened. Before the first drain every blamed node must be one `scontrol show node` knows by that
// name. Exit: 0 no node blamed, 1 nodes blamed (printed, or drained with --drain), 2 bad input (a
// node name no command may be built from, or a node Slurm does not know, refuses the whole run:
// nothing is drained), 3 scontrol failed.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "core/text_escape.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/comparison_output.hpp"
#include "harness/cli/nodes_resume.hpp"
#include "harness/cli/shipped_suites.hpp"
#include "harness/cli/slurm_node_record.hpp"
#include "harness/cluster/node_actions.hpp"
#include "harness/cluster/node_exports.hpp"
#include "harness/cluster/node_policy.hpp"
#include "harness/cluster/outliers.hpp"
#include "harness/fingerprint/subprocess.hpp"
#include "harness/gate/acks.hpp"
#include "harness/gate/outcome.hpp"
#include "harness/gate/runner_evidence.hpp"
#include "harness/launch/run_assembly.hpp"
#include "harness/model/baseline_location.hpp"
#include "harness/model/run_record.hpp"
#include "harness/verdict/finding_ids.hpp"

namespace fabricgate::cli {

namespace {

namespace fs = std::filesystem;

struct NodesArgs {
  std::string run;
  bool drain = false;
  bool resume = false;  // nodes_resume.hpp
  bool apply = false;   // with --resume: run the RESUME lines
  std::string format = "text";
  int timeout_s = 30;
  std::string baseline;
  std::string baselines_dir = kBaselinesDir;
  std::string store;
};

// A host outside the fleet its baseline describes (HOST-OUTLIER, harness/gate/runner_split.hpp)
// is the node's finding too: the run judged against the fleet (--gate fleet), with its recorded
// confirmations. No baseline: nothing to add; a baseline that cannot judge the run is said and
// left out (the findings that need none still stand).
std::vector<verdict::ClusterFinding> fleet_findings(const NodesArgs& a) {
  try {
    const GatedRun g =
        judge_run_files({a.run}, a.baseline, a.baselines_dir,
                        compare_options(false, false, "fleet"), a.store, store::Access::read);
    std::vector<verdict::ClusterFinding> out;
    for (const verdict::ClusterFinding& f : g.comparison.cluster_findings) {
      if (f.id != verdict::finding_id::host_outlier) continue;
      if (f.acked) {  // acknowledged in <baselines-dir>/acks.json: said, no action
        std::cerr << report::console_text("fabricgate nodes: " + f.text) << "\n";
        continue;
      }
      // A launch on a busy runner: the offset may be the load's (harness/gate/runner_split.cpp).
      if (gate::measured_on_busy_runner(g.comparison)) {
        std::cerr << report::console_text("fabricgate nodes: " + f.field + " (" + f.node +
                                          ") is outside the fleet, but the run was measured on a "
                                          "busy runner: the offset may be the load's; no action "
                                          "planned for it (rerun on an idle runner)")
                  << "\n";
        continue;
      }
      // An offset recorded beside a software change may be the change's (a fall-back to TCP
      // makes every host an outlier): no node action until it is seen on the baseline's software.
      if (!g.comparison.software_changes.empty()) {
        std::cerr << report::console_text(
                         "fabricgate nodes: " + f.field + " (" + f.node +
                         ") is outside the fleet, but the run's software differs from the "
                         "baseline's (" +
                         g.comparison.software_changes.front() +
                         (g.comparison.software_changes.size() > 1 ? ", ..." : "") +
                         "): the offset may be the change's, not the node's; no action planned "
                         "for it (judge the change with `fabricgate ab`, the node on the "
                         "baseline's software)")
                  << "\n";
        continue;
      }
      out.push_back(f);
    }
    return out;
  } catch (const InputError& e) {
    std::cerr << "fabricgate nodes: not judged against a fleet: " << report::console_text(e.what())
              << "\n";
    return {};
  }
}

std::string run_file(const std::string& path) {
  return fs::is_directory(path) ? (fs::path(path) / "run.json").string() : path;
}

// The JSON pointer of the first name no command may be built from, for the error message.
std::string where_unsafe(const RunRecord& run) {
  for (std::size_t i = 0; i < run.nodes.size(); ++i) {
    const NodeRecord& n = run.nodes[i];
    if (!n.hostname.empty() && !cluster::is_safe_node_name(n.hostname))
      return "/nodes/" + std::to_string(i) + "/hostname";
    if (n.hostname.empty() && !cluster::is_safe_node_name(n.name))
      return "/nodes/" + std::to_string(i) + "/name";
  }
  return "/benchmarks (params.nodes of a node pair)";
}

nlohmann::json plan_json(const cluster::NodeActionPlan& plan, bool drain, const std::string& time) {
  nlohmann::json actions = nlohmann::json::array();
  for (const cluster::NodeAction& a : plan.actions) {
    actions.push_back({{"node", a.node},
                       {"findings", a.findings},
                       {"details", a.details},
                       {"reason", a.reason},
                       {"severity", cluster::severity_name(a.severity)},
                       {"severity_why", a.severity_why},
                       {"slurm", a.slurm_line},
                       {"slurm_argv", a.drain_argv},
                       {"slurm_resume_argv", a.resume_argv},
                       {"kubernetes", a.kubectl_lines},
                       {"kubernetes_condition", cluster::is_kubernetes_node_name(a.node)
                                                    ? cluster::node_condition(a, time)
                                                    : nlohmann::json(nullptr)}});
  }
  nlohmann::json refused = nlohmann::json::array();
  for (const cluster::RefusedNode& r : plan.refused)
    refused.push_back({{"node", r.node}, {"finding", r.finding}, {"why", r.why}});
  return {{"schema", "fabricgate.node-actions/1"},
          {"dry_run", !drain},
          {"actions", std::move(actions)},
          {"refused", std::move(refused)},
          {"unblamed", plan.unblamed}};
}

// The plan as text. Details come from run files (a host id, an RDMA device name): they are
// shown through console_text, so no line can carry a control sequence or start a GitHub
// workflow command (`::error file=...::`).
std::string plan_text(const cluster::NodeActionPlan& plan, const std::string& format, bool drain,
                      const std::string& time) {
  std::string out;
  if (format == "slurm") {  // bare lines, to review and paste
    for (const cluster::NodeAction& a : plan.actions)
      if (a.drains()) out += a.slurm_line + "\n";
    return out;
  }
  if (format == "kubernetes") {
    for (const cluster::NodeAction& a : plan.actions) {
      for (const std::string& k : a.kubectl_lines) out += k + "\n";
      const std::string condition = cluster::node_condition_line(a, time);
      if (!condition.empty()) out += condition + "\n";
    }
    return out;
  }
  if (plan.empty()) return "fabricgate nodes: no node is blamed by this run\n";
  for (const cluster::NodeAction& a : plan.actions) {
    out += "node " + a.node + ":\n";
    for (const std::string& d : a.details) out += "  finding: " + report::printable(d) + "\n";
    out += "  severity:   " + std::string(cluster::severity_name(a.severity)) + " (" +
           report::printable(a.severity_why) + ")\n";
    const std::string condition = cluster::node_condition_line(a, time);
    if (!a.drains()) {
      if (!condition.empty()) out += "  kubernetes: " + condition + "\n";
      out += "  no drain, no cordon: " +
             std::string(a.severity == cluster::NodeSeverity::reboot_suggested
                             ? "reboot it when convenient and watch the next runs"
                             : "watch the next runs") +
             "\n";
      continue;
    }
    out += "  slurm:      " + a.slurm_line + "\n";
    for (const std::string& k : a.kubectl_lines) out += "  kubernetes: " + k + "\n";
    if (!condition.empty()) out += "  kubernetes: " + condition + "\n";
    if (a.kubectl_lines.empty())
      out += "  kubernetes: (not a Kubernetes node name: no kubectl line)\n";
  }
  for (const cluster::RefusedNode& r : plan.refused)
    out += "no action for " + report::printable(r.finding) + " node " + report::printable(r.node) +
           ": " + report::printable(r.why) + "\n";
  for (const std::string& u : plan.unblamed)
    out += "no single node to act on: " + report::printable(u) + "\n";
  if (!drain && std::any_of(plan.actions.begin(), plan.actions.end(),
                            [](const cluster::NodeAction& a) { return a.drains(); }))
    out += "dry run: nothing changed; --drain runs the Slurm lines\n";
  return out;
}

void print_plan(const cluster::NodeActionPlan& plan, const std::string& format, bool drain,
                const RunRecord& run) {
  // The run's start dates the condition and the event: the same run gives the same documents.
  const std::string time = cluster::finding_time(run.started_at, launch::utc_now_iso8601());
  if (format == "json") {  // the encoder escapes every control character itself
    std::cout << plan_json(plan, drain, time).dump(2) << "\n";
    return;
  }
  if (format == "nvsentinel") {  // a List `kubectl apply -f` takes; the encoder escapes
    std::cout << cluster::nvsentinel_health_events(plan, run.run_id, time).dump(2) << "\n";
    return;
  }
  std::cout << report::console_text(plan_text(plan, format, drain, time)) << std::flush;
}

// Whether `scontrol show node NAME` describes exactly that one node: a run file can name a
// machine of another cluster, and only a node Slurm knows by that name may be drained.
enum class NodeKnown { yes, no, cannot_tell };

NodeKnown slurm_knows(const std::string& node, int timeout_s, std::string& why) {
  const auto r = fingerprint::run_program({"scontrol", "--oneliner", "show", "node", node}, 1 << 16,
                                          std::chrono::seconds(timeout_s));
  const std::string said = r.out + r.err;
  if (r.succeeded()) {
    // One record, and its NodeName is the name asked for (not a list, not another node).
    const std::string want = "NodeName=" + node + " ";
    const std::size_t end = said.find('\n');
    const bool one_line = end == std::string::npos || end + 1 == said.size();
    if (said.rfind(want, 0) == 0 && one_line) return NodeKnown::yes;
    why = "scontrol show node " + node +
          " did not describe one node of that name: " + report::printable(said, 200);
    return NodeKnown::no;
  }
  if (r.started && !r.timed_out && said.find("not found") != std::string::npos) {
    why = "Slurm has no node " + node + " (" + report::printable(said, 200) + ")";
    return NodeKnown::no;
  }
  why = r.failure_text("scontrol show node");
  return NodeKnown::cannot_tell;
}

// Confirms every blamed node with Slurm before the first drain; nothing is drained unless all
// are confirmed. Returns the exit code to end with, or -1 when all are known.
int confirm_all(const cluster::NodeActionPlan& plan, int timeout_s) {
  int exit_code = -1;
  for (const cluster::NodeAction& a : plan.actions) {
    if (!a.drains()) continue;
    std::string why;
    const NodeKnown known = slurm_knows(a.node, timeout_s, why);
    if (known == NodeKnown::yes) continue;
    std::cerr << report::console_text("fabricgate nodes: " + why + "\n");
    // A node this cluster does not know is the run's fault (2); no answer at all is Slurm's (3).
    const int code =
        static_cast<int>(known == NodeKnown::no ? ExitCode::input_error : ExitCode::infra_failure);
    exit_code = std::max(exit_code, code);
  }
  if (exit_code >= 0) std::cerr << "fabricgate nodes: nothing was drained\n";
  return exit_code;
}

// Runs every drain; returns how many failed (each reported on stderr).
int drain_all(const cluster::NodeActionPlan& plan, int timeout_s) {
  int failed = 0;
  for (const cluster::NodeAction& a : plan.actions) {
    if (!a.drains()) continue;
    const auto r = fingerprint::run_program(a.drain_argv, 1 << 16, std::chrono::seconds(timeout_s));
    if (r.succeeded()) {
      std::cerr << report::console_text("fabricgate nodes: drained " + a.node + " (" + a.reason +
                                        ")\n");
      continue;
    }
    ++failed;
    std::cerr << report::console_text("fabricgate nodes: could not drain " + a.node + ": " +
                                      r.failure_text("scontrol update") + "\n");
  }
  return failed;
}

// The allocation's machines: the run's nodes by host name (a node's name when it has none).
std::set<std::string> allocation_hosts(const RunRecord& run, const cluster::NodeActionPlan& plan) {
  std::set<std::string> hosts;
  for (const NodeRecord& n : run.nodes) hosts.insert(n.hostname.empty() ? n.name : n.hostname);
  for (const cluster::NodeAction& act : plan.actions) hosts.insert(act.node);
  return hosts;
}

// A node Slurm holds drained for fabricgate: its state drains and its Reason carries fabricgate's
// prefix (node_actions.cpp writes "fabricgate: ..."). Nodes someone else drained are not ours.
bool drained_by_fabricgate(const std::string& node, int timeout_s) {
  const auto r = fingerprint::run_program({"scontrol", "--oneliner", "show", "node", node}, 1 << 16,
                                          std::chrono::seconds(timeout_s));
  if (!r.succeeded() || r.out.rfind("NodeName=" + node + " ", 0) != 0) return false;
  return held_by_fabricgate(r.out.substr(0, r.out.find('\n')));
}

struct BudgetCheck {
  std::size_t allocation = 0;
  std::size_t budget = 0;
  std::set<std::string> held;   // drained for fabricgate already (with --drain: asked of Slurm)
  std::set<std::string> after;  // held and the plan's nodes
  bool exceeded() const { return after.size() > budget; }
};

BudgetCheck check_budget(const RunRecord& run, const cluster::NodeActionPlan& plan,
                         const cluster::NodePolicy& policy, bool ask_slurm, int timeout_s) {
  BudgetCheck b;
  const std::set<std::string> hosts = allocation_hosts(run, plan);
  b.allocation = hosts.size();
  b.budget = cluster::drain_budget(policy, b.allocation);
  const bool any_drain = std::any_of(plan.actions.begin(), plan.actions.end(),
                                     [](const cluster::NodeAction& act) { return act.drains(); });
  if (ask_slurm && any_drain) {
    for (const std::string& h : hosts) {
      if (cluster::is_safe_node_name(h) && drained_by_fabricgate(h, timeout_s)) b.held.insert(h);
    }
  }
  b.after = b.held;
  for (const cluster::NodeAction& act : plan.actions)
    if (act.drains()) b.after.insert(act.node);
  return b;
}

// FABRIC-WIDE: what the run would have drained, and why none is.
void print_fabric_wide(const BudgetCheck& b, const cluster::NodeActionPlan& plan,
                       const cluster::NodePolicy& policy, const std::string& format, bool drain) {
  std::vector<std::string> nodes;
  for (const cluster::NodeAction& act : plan.actions)
    if (act.drains()) nodes.push_back(act.node);
  std::vector<std::string> held(b.held.begin(), b.held.end());
  if (format == "json") {
    nlohmann::json j = plan_json(plan, drain, "");
    j["fabric_wide"] = {{"would_drain", nodes},
                        {"already_drained_by_fabricgate", held},
                        {"allocation_nodes", b.allocation},
                        {"budget", b.budget},
                        {"policy", policy.source}};
    j["actions"] = nlohmann::json::array();
    std::cout << j.dump(2) << "\n";
    return;
  }
  if (format == "nvsentinel") {  // no node is the fault: an empty List (kubectl apply takes it)
    std::cout << nlohmann::json(
                     {{"apiVersion", "v1"}, {"kind", "List"}, {"items", nlohmann::json::array()}})
                     .dump(2)
              << "\n";
    return;
  }
  if (format != "text") return;  // slurm / kubernetes: no line to paste
  std::string text = fmt::format(
      "FABRIC-WIDE: this run would leave {} of the allocation's {} node(s) drained by fabricgate "
      "(budget {}: max({}, {:.0f} % of the nodes), {}); a fault that wide is the fabric's, the "
      "software's or the baseline's, not the nodes': none is drained\n",
      b.after.size(), b.allocation, b.budget, policy.drain_min_nodes, 100 * policy.drain_share,
      policy.source);
  for (const cluster::NodeAction& act : plan.actions) {
    if (!act.drains()) continue;
    text += "  would drain " + act.node + ":";
    for (const std::string& d : act.details) text += " " + report::printable(d) + ";";
    text += "\n";
  }
  for (const std::string& h : held) text += "  already drained by fabricgate: " + h + "\n";
  if (!drain) text += "dry run: nodes fabricgate drained earlier are counted with --drain\n";
  std::cout << report::console_text(text) << std::flush;
}

int run_nodes(const NodesArgs& a) {
  if (a.resume) {
    if (!a.run.empty() || a.drain)
      throw InputError("--resume works on the cluster, not on a run: give neither RUN nor --drain");
    return run_nodes_resume({a.store, a.apply, a.timeout_s});
  }
  if (a.apply) throw InputError("--apply goes with --resume (--drain runs the drain lines)");
  if (a.run.empty()) throw InputError("RUN: a run directory or run.json (or --resume)");
  const RunRecord run = load_run(a.run);
  // Acknowledged findings: a malformed acks file is an input error before anything runs.
  const std::string today = gate::utc_today();
  const gate::Acks acks = gate::find_acks(a.baselines_dir, today);
  std::vector<verdict::ClusterFinding> findings = cluster::check_cluster_consistency(run.nodes);
  for (verdict::ClusterFinding& f : cluster::find_pair_outliers(run.benchmarks))
    findings.push_back(std::move(f));
  for (verdict::ClusterFinding& f : cluster::find_stragglers(run.benchmarks))
    findings.push_back(std::move(f));
  for (verdict::ClusterFinding& f : fleet_findings(a)) findings.push_back(std::move(f));
  // DEGRADED-LINK from the launch's RDMA counters (docs/COUNTERS.md).
  for (verdict::ClusterFinding& f : gate::link_cluster_findings(run))
    findings.push_back(std::move(f));
  std::vector<std::string> ack_notes;
  gate::apply_finding_acks(findings, ack_notes, acks, run.platform, today);
  for (const std::string& n : ack_notes)
    std::cerr << report::console_text("fabricgate nodes: " + n) << "\n";
  const cluster::NodeActionPlan plan = cluster::plan_node_actions(findings, run.nodes, run.run_id);
  for (const cluster::RefusedNode& r : plan.refused) {
    if (!r.unsafe_name) continue;
    throw InputError(run_file(a.run), where_unsafe(run),
                     std::string(cluster::kNodeNameRule) + " for " + r.finding + ", found \"" +
                         r.node + "\"; no command is built from it and nothing was drained");
  }
  const cluster::NodePolicy policy =
      cluster::find_node_policy({"policies", shipped_policies_dir()});
  if (a.drain) {
    const int refused = confirm_all(plan, a.timeout_s);
    if (refused >= 0) return refused;
  }
  // The drain budget (node_policy.hpp), before any line is printed as a plan or run.
  const BudgetCheck budget = check_budget(run, plan, policy, a.drain, a.timeout_s);
  if (budget.exceeded()) {
    print_fabric_wide(budget, plan, policy, a.format, a.drain);
    if (a.drain) std::cerr << "fabricgate nodes: FABRIC-WIDE: nothing was drained\n";
    return static_cast<int>(ExitCode::gate_failure);
  }
  print_plan(plan, a.format, a.drain, run);
  if (a.drain && drain_all(plan, a.timeout_s) > 0) return static_cast<int>(ExitCode::infra_failure);
  return static_cast<int>(plan.empty() ? ExitCode::pass : ExitCode::gate_failure);
}

}  // namespace

void add_nodes_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<NodesArgs>();
  auto* cmd = app.add_subcommand("nodes",
                                 "Print the Slurm drain / Kubernetes cordon lines for the nodes a "
                                 "run blames (--drain runs scontrol)");
  cmd->footer(
      "Example:\n"
      "  fabricgate nodes results/cluster/RUN_ID --format slurm\n"
      "  fabricgate nodes results/cluster/RUN_ID --format nvsentinel | kubectl apply -f -\n"
      "  fabricgate nodes --resume --store sqlite:results/fabricgate.sqlite --apply");
  cmd->add_option("run", a->run, "Run directory or run.json (not with --resume)");
  cmd->add_flag("--resume", a->resume,
                "Return to service the nodes fabricgate drained (Slurm Reason 'fabricgate:') that "
                "have the policy's passing runs (default 2) in the store since; a dry run unless "
                "--apply");
  cmd->add_flag("--apply", a->apply, "With --resume: run the scontrol RESUME lines");
  cmd->add_flag("--drain", a->drain,
                "Run `scontrol update NodeName=... State=DRAIN` for each blamed node");
  cmd->add_option("--format", a->format,
                  "text|json|slurm|kubernetes|nvsentinel (kubernetes: cordon, label, taint and the "
                  "FabricgateDegraded node condition; nvsentinel: HealthEvents, a List for kubectl "
                  "apply -f)")
      ->check(CLI::IsMember({"text", "json", "slurm", "kubernetes", "nvsentinel"}))
      ->capture_default_str();
  cmd->add_option("--baseline", a->baseline,
                  "Baseline whose fleet judges the run for HOST-OUTLIER (default: the run's own, "
                  "as `compare` chooses it under --baselines-dir)");
  cmd->add_option("--baselines-dir", a->baselines_dir, "Directory of baselines")
      ->capture_default_str();
  cmd->add_option("--store", a->store,
                  "Results store read for the run's history (never written): sqlite:PATH, "
                  "postgresql://HOST/DB, a libpq conninfo or none");
  cmd->add_option("--timeout", a->timeout_s, "Seconds one scontrol may take")
      ->check(CLI::Range(1, 600))
      ->capture_default_str();
  cmd->callback([a, &exit_code] { exit_code = run_nodes(*a); });
}

}  // namespace fabricgate::cli
