#include "harness/cli/nodes_resume.hpp"

#include <chrono>
#include <iostream>
#include <vector>

#include "core/errors.hpp"
#include "core/text_escape.hpp"
#include "harness/cli/shipped_suites.hpp"
#include "harness/cli/slurm_node_record.hpp"
#include "harness/cluster/node_actions.hpp"
#include "harness/cluster/node_policy.hpp"
#include "harness/fingerprint/host_key.hpp"
#include "harness/fingerprint/subprocess.hpp"
#include "harness/store/results_store.hpp"
#include "harness/store/row_seal.hpp"

namespace fabricgate::cli {

namespace {

struct DrainedNode {
  std::string node;
  std::string since;  // ISO 8601 UTC, from the Reason's "[user@YYYY-MM-DDTHH:MM:SS]"
  std::string reason;
};

// Every node Slurm holds drained for fabricgate, with when.
std::vector<DrainedNode> drained_by_fabricgate(int timeout_s) {
  const auto r = fingerprint::run_program({"scontrol", "--oneliner", "show", "node"}, 1 << 22,
                                          std::chrono::seconds(timeout_s));
  if (!r.succeeded()) throw InfraError(r.failure_text("scontrol show node"));
  std::vector<DrainedNode> out;
  std::size_t pos = 0;
  while (pos < r.out.size()) {
    const std::size_t end = std::min(r.out.find('\n', pos), r.out.size());
    const std::string record = r.out.substr(pos, end - pos);
    pos = end + 1;
    const std::string node = slurm_field(record, "NodeName");
    if (node.empty() || !held_by_fabricgate(record) || !cluster::is_safe_node_name(node)) continue;
    DrainedNode d{node, "", slurm_reason(record)};
    const std::size_t stamp = d.reason.rfind(" [");
    const std::size_t at = stamp == std::string::npos ? stamp : d.reason.find('@', stamp);
    if (at != std::string::npos && d.reason.back() == ']')
      d.since = d.reason.substr(at + 1, d.reason.size() - at - 2) + "Z";
    out.push_back(std::move(d));
  }
  return out;
}

bool passing(const store::StoredRun& r) {
  const auto o = r.facts.find("outcome");
  return o != r.facts.end() && o->is_string() &&
         (o->get<std::string>() == "PASS" || o->get<std::string>() == "NO BASELINE");
}

}  // namespace

int run_nodes_resume(const ResumeArgs& a) {
  const cluster::NodePolicy policy =
      cluster::find_node_policy({"policies", shipped_policies_dir()});
  const store::StoreLocation where = store::resolve_store_location(a.store, "results");
  if (where.kind == store::StoreKind::none)
    throw InputError("--store none: --resume counts a node's passing runs in the results store");
  const std::vector<DrainedNode> drained = drained_by_fabricgate(a.timeout_s);
  if (drained.empty()) {
    std::cout << "fabricgate nodes: no node is drained by fabricgate\n";
    return 0;
  }
  const std::optional<std::string> key = fingerprint::read_host_key();
  auto s = store::open_store(where, store::Access::read);
  const auto need = static_cast<std::size_t>(policy.resume_after_passing_runs);
  std::string text;
  std::vector<std::string> back;
  for (const DrainedNode& d : drained) {
    std::size_t passed = 0;
    std::size_t unsealed = 0;
    for (const std::string& platform : s->platforms()) {
      store::RunQuery q;
      q.platform = platform;
      q.node = d.node;
      for (const store::StoredRun& r : s->runs(q)) {
        if (std::find(r.nodes.begin(), r.nodes.end(), d.node) == r.nodes.end()) continue;
        if (d.since.empty() || r.started_at <= d.since || !passing(r)) continue;
        if (!key || !store::seal_holds(r, *key)) {
          ++unsealed;
          continue;
        }
        ++passed;
      }
    }
    text += "node " + d.node + " (drained " + (d.since.empty() ? "at an unknown time" : d.since) +
            ", " + d.reason.substr(0, d.reason.rfind(" [")) + "): " + std::to_string(passed) +
            " of " + std::to_string(need) + " passing run(s) since, in " + s->display() +
            (unsealed ? " (" + std::to_string(unsealed) + " more unsealed: not counted)" : "");
    if (passed >= need) {
      text += ": resume\n  slurm: scontrol update NodeName=" + d.node + " State=RESUME\n";
      back.push_back(d.node);
    } else {
      text += ": stays drained\n";
    }
  }
  if (!a.apply && !back.empty()) text += "dry run: nothing changed; --apply runs the Slurm lines\n";
  std::cout << report::console_text(text) << std::flush;
  int failed = 0;
  for (const std::string& node : a.apply ? back : std::vector<std::string>{}) {
    const auto r =
        fingerprint::run_program({"scontrol", "update", "NodeName=" + node, "State=RESUME"},
                                 1 << 16, std::chrono::seconds(a.timeout_s));
    if (r.succeeded()) {
      std::cerr << "fabricgate nodes: resumed " << node << "\n";
    } else {
      ++failed;
      std::cerr << report::console_text("fabricgate nodes: could not resume " + node + ": " +
                                        r.failure_text("scontrol update"))
                << "\n";
    }
  }
  return static_cast<int>(failed > 0 ? ExitCode::infra_failure : ExitCode::pass);
}

}  // namespace fabricgate::cli
