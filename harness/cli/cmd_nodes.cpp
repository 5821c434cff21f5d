// fabricgate nodes RUN [--drain] [--format text|json|slurm|kubernetes]: what an admin does about
// the nodes a run blames (SUSPECT-NODE, NODE-MISMATCH, STRAGGLER alone on its host): Slurm drain
// lines and Kubernetes cordon/label/taint lines (harness/gate/node_actions.hpp). A dry run by
// default; --drain runs each Slurm line's argument vector (scontrol, no shell) and reports what
// happened. Exit: 0 no node blamed, 1 nodes blamed (printed, or drained with --drain), 2 bad input
// (a node name no command may be built from refuses the whole run: nothing is drained), 3 scontrol
// failed.
#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "harness/cli/commands.hpp"
#include "harness/fingerprint/subprocess.hpp"
#include "harness/gate/cluster_consistency.hpp"
#include "harness/gate/node_actions.hpp"
#include "harness/gate/pair_outliers.hpp"
#include "harness/model/run_record.hpp"
#include "harness/ranks/straggler.hpp"

namespace fabricgate::cli {

namespace {

namespace fs = std::filesystem;

struct NodesArgs {
  std::string run;
  bool drain = false;
  std::string format = "text";
  int timeout_s = 30;
};

std::string run_file(const std::string& path) {
  return fs::is_directory(path) ? (fs::path(path) / "run.json").string() : path;
}

// The JSON pointer of the first name no command may be built from, for the error message.
std::string where_unsafe(const RunRecord& run) {
  for (std::size_t i = 0; i < run.nodes.size(); ++i) {
    const NodeRecord& n = run.nodes[i];
    if (!n.hostname.empty() && !gate::is_safe_node_name(n.hostname))
      return "/nodes/" + std::to_string(i) + "/hostname";
    if (n.hostname.empty() && !gate::is_safe_node_name(n.name))
      return "/nodes/" + std::to_string(i) + "/name";
  }
  return "/benchmarks (params.nodes of a node pair)";
}

nlohmann::json plan_json(const gate::NodeActionPlan& plan, bool drain) {
  nlohmann::json actions = nlohmann::json::array();
  for (const gate::NodeAction& a : plan.actions) {
    actions.push_back({{"node", a.node},
                       {"findings", a.findings},
                       {"details", a.details},
                       {"reason", a.reason},
                       {"slurm", a.slurm_line},
                       {"slurm_argv", a.drain_argv},
                       {"slurm_resume_argv", a.resume_argv},
                       {"kubernetes", a.kubectl_lines}});
  }
  nlohmann::json refused = nlohmann::json::array();
  for (const gate::RefusedNode& r : plan.refused)
    refused.push_back({{"node", r.node}, {"finding", r.finding}, {"why", r.why}});
  return {{"schema", "fabricgate.node-actions/1"},
          {"dry_run", !drain},
          {"actions", std::move(actions)},
          {"refused", std::move(refused)},
          {"unblamed", plan.unblamed}};
}

void print_plan(const gate::NodeActionPlan& plan, const std::string& format, bool drain) {
  if (format == "json") {
    std::cout << plan_json(plan, drain).dump(2) << "\n";
    return;
  }
  if (format == "slurm") {  // bare lines, to review and paste
    for (const gate::NodeAction& a : plan.actions) std::cout << a.slurm_line << "\n";
    return;
  }
  if (format == "kubernetes") {
    for (const gate::NodeAction& a : plan.actions) {
      for (const std::string& k : a.kubectl_lines) std::cout << k << "\n";
    }
    return;
  }
  if (plan.empty()) {
    std::cout << "fabricgate nodes: no node is blamed by this run\n";
    return;
  }
  for (const gate::NodeAction& a : plan.actions) {
    std::cout << "node " << a.node << ":\n";
    for (const std::string& d : a.details) std::cout << "  finding: " << d << "\n";
    std::cout << "  slurm:      " << a.slurm_line << "\n";
    for (const std::string& k : a.kubectl_lines) std::cout << "  kubernetes: " << k << "\n";
    if (a.kubectl_lines.empty())
      std::cout << "  kubernetes: (not a Kubernetes node name: no kubectl line)\n";
  }
  for (const gate::RefusedNode& r : plan.refused)
    std::cout << "no action for " << r.finding << " node " << r.node << ": " << r.why << "\n";
  for (const std::string& u : plan.unblamed) std::cout << "no single node to act on: " << u << "\n";
  if (!drain && !plan.actions.empty())
    std::cout << "dry run: nothing changed; --drain runs the Slurm lines\n";
}

// Runs every drain; returns how many failed (each reported on stderr).
int drain_all(const gate::NodeActionPlan& plan, int timeout_s) {
  int failed = 0;
  for (const gate::NodeAction& a : plan.actions) {
    const auto r = fingerprint::run_program(a.drain_argv, 1 << 16, std::chrono::seconds(timeout_s));
    if (r.succeeded()) {
      std::cerr << "fabricgate nodes: drained " << a.node << " (" << a.reason << ")\n";
      continue;
    }
    ++failed;
    std::cerr << "fabricgate nodes: could not drain " << a.node << ": "
              << r.failure_text("scontrol update") << "\n";
  }
  return failed;
}

int run_nodes(const NodesArgs& a) {
  const RunRecord run = load_run(a.run);
  std::vector<gate::ClusterFinding> findings = gate::check_cluster_consistency(run.nodes);
  for (gate::ClusterFinding& f : gate::find_pair_outliers(run.benchmarks))
    findings.push_back(std::move(f));
  for (gate::ClusterFinding& f : ranks::find_stragglers(run.benchmarks))
    findings.push_back(std::move(f));
  const gate::NodeActionPlan plan = gate::plan_node_actions(findings, run.nodes, run.run_id);
  for (const gate::RefusedNode& r : plan.refused) {
    if (!r.unsafe_name) continue;
    throw InputError(run_file(a.run), where_unsafe(run),
                     "a node name of [A-Za-z0-9][A-Za-z0-9._-]* (at most 253 characters) for " +
                         r.finding + ", found \"" + r.node +
                         "\"; no command is built from it and nothing was drained");
  }
  print_plan(plan, a.format, a.drain);
  if (a.drain && drain_all(plan, a.timeout_s) > 0) return static_cast<int>(ExitCode::infra_failure);
  return static_cast<int>(plan.empty() ? ExitCode::pass : ExitCode::gate_failure);
}

}  // namespace

void add_nodes_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<NodesArgs>();
  auto* cmd = app.add_subcommand("nodes",
                                 "Print the Slurm drain / Kubernetes cordon lines for the nodes a "
                                 "run blames (--drain runs scontrol)");
  cmd->add_option("run", a->run, "Run directory or run.json")->required();
  cmd->add_flag("--drain", a->drain,
                "Run `scontrol update NodeName=... State=DRAIN` for each blamed node");
  cmd->add_option("--format", a->format, "text|json|slurm|kubernetes")
      ->check(CLI::IsMember({"text", "json", "slurm", "kubernetes"}))
      ->capture_default_str();
  cmd->add_option("--timeout", a->timeout_s, "Seconds one scontrol may take")
      ->check(CLI::Range(1, 600))
      ->capture_default_str();
  cmd->callback([a, &exit_code] { exit_code = run_nodes(*a); });
}

}  // namespace fabricgate::cli
