#include "harness/gate/runner_evidence.hpp"

#include "harness/gate/outcome.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#include "harness/cluster/node_actions.hpp"
#include "harness/gate/runner_split.hpp"
#include "harness/model/counters/link_findings.hpp"
#include "harness/verdict/finding_ids.hpp"

namespace fabricgate::gate {

namespace {

// The launching host: the host device of the counters, else the run's node, else its host id.
std::string host_of(const RunRecord& run) {
  for (const counters::DeviceCounters& d : run.runner_counters.devices)
    if (d.kind == "host" && !d.device.empty()) return d.device;
  if (!run.nodes.empty() && !run.nodes.front().hostname.empty()) return run.nodes.front().hostname;
  return run.host_id;
}

std::vector<const RunRecord*> launches_of(const RunRecord& first,
                                          const std::vector<RunRecord>& confirmations) {
  std::vector<const RunRecord*> all{&first};
  for (const RunRecord& r : confirmations) all.push_back(&r);
  return all;
}

std::string same_directory(const std::string& a, const std::string& b) {
  std::error_code ec;
  const auto ca = std::filesystem::weakly_canonical(a, ec);
  if (ec) return {};
  const auto cb = std::filesystem::weakly_canonical(b, ec);
  return !ec && ca == cb ? ca.string() : std::string();
}

// The throttling lines of the launches key `k` was measured in: the first launch, and each
// confirmation launch its confirmation names.
std::vector<std::string> throttling_of_key(const verdict::KeyComparison& k, const RunRecord& first,
                                           const std::vector<RunRecord>& confirmations) {
  std::vector<std::string> lines;
  const auto add = [&](const RunRecord& run, const std::string& label) {
    for (const std::string& note : counters::throttle_notes(run.runner_counters))
      lines.push_back(label + note);
  };
  add(first, confirmations.empty() && !k.confirmation ? "" : "first launch: ");
  if (!k.confirmation) return lines;
  for (std::size_t i = 0; i < k.confirmation->later.size(); ++i) {
    for (const RunRecord& run : confirmations) {
      if (!same_directory(k.confirmation->later[i].source, run.directory).empty())
        add(run, "confirmation " + std::to_string(i + 1) + ": ");
    }
  }
  return lines;
}

void add_findings(verdict::Comparison& c, const RunRecord& first,
                  const std::vector<RunRecord>& confirmations) {
  std::set<std::tuple<bool, std::string, std::string>> seen;  // one finding per fault
  for (const RunRecord* run : launches_of(first, confirmations)) {
    for (verdict::ClusterFinding& f : link_cluster_findings(*run)) {
      if (!seen.insert({f.fails_gate, f.node, f.field}).second) continue;
      if (run != &first) f.text = "confirmation launch " + run->run_id + ": " + f.text;
      c.cluster_findings.push_back(std::move(f));
    }
  }
  if (seen.empty()) return;
  std::stable_sort(c.cluster_findings.begin(), c.cluster_findings.end(),
                   [](const verdict::ClusterFinding& a, const verdict::ClusterFinding& b) {
                     return a.fails_gate && !b.fails_gate;
                   });
  c.node_actions = cluster::node_action_lines(
      cluster::plan_node_actions(actionable_findings(c), first.nodes, first.run_id));
  // A degraded link fails the gate whatever loaded the runner: settle_outcome never calls a run
  // with a failing finding busy.
}

}  // namespace

verdict::RunnerEvidence collect_runner_evidence(const RunRecord& first,
                                                const std::vector<RunRecord>& confirmations) {
  verdict::RunnerEvidence e;
  for (const RunRecord* run : launches_of(first, confirmations)) {
    const counters::RunnerCounters& rc = run->runner_counters;
    if (!rc.present) continue;
    e.recorded = true;
    e.snapshot_ms_max = std::max(e.snapshot_ms_max, rc.snapshot_ms);
    for (const counters::ForeignProcess& f : rc.foreign_processes) {
      e.foreign_processes.push_back({f.pid, f.name, f.gpu_index, f.gpu_uuid, f.used_memory_bytes,
                                     f.sm_percent, run->run_id, f.seen});
    }
    for (const std::string& note : counters::throttle_notes(rc))
      e.throttling.push_back(run->run_id + ": " + note);
    // NVML's absence matters where the fingerprint saw GPUs; on a CPU runner it is the norm.
    const bool gpus_expected = run->fingerprint.identity.is_object() &&
                               run->fingerprint.identity.value("gpu_count", 0) > 0;
    for (const counters::Unread& u : rc.unread)
      if (u.what == "nvml" && gpus_expected) e.unread.push_back(run->run_id + ": " + u.reason);
    const bool has_gpu =
        std::any_of(rc.devices.begin(), rc.devices.end(),
                    [](const counters::DeviceCounters& d) { return d.kind == "gpu"; });
    if (has_gpu && !rc.processes_checked)
      e.unread.push_back(run->run_id + ": the GPUs' compute processes could not be listed");
  }
  e.foreign_load = !e.foreign_processes.empty();
  return e;
}

std::vector<verdict::ClusterFinding> link_cluster_findings(const RunRecord& launch) {
  std::vector<verdict::ClusterFinding> out;
  const std::string host = host_of(launch);
  for (const counters::LinkFinding& f : counters::link_findings(launch.runner_counters)) {
    verdict::ClusterFinding c;
    c.id = verdict::finding_id::degraded_link;
    c.fails_gate = f.fatal;
    c.node = host;
    c.field = f.device + "/" + std::to_string(f.port) + " " + f.counter;
    c.text = (host.empty() ? "" : host + " ") + f.text +
             (f.fatal ? "" : " (degradation: a warning, not a failure)");
    out.push_back(std::move(c));
  }
  return out;
}

void add_runner_evidence(verdict::Comparison& c, const RunRecord& first,
                         const std::vector<RunRecord>& confirmations) {
  c.runner_evidence = collect_runner_evidence(first, confirmations);
  add_findings(c, first, confirmations);
  for (verdict::KeyComparison& k : c.keys) {
    if (!verdict::verdict_fails_gate(k.verdict)) continue;
    const std::vector<std::string> lines = throttling_of_key(k, first, confirmations);
    if (lines.empty()) continue;
    std::string text;
    for (const std::string& l : lines) text += (text.empty() ? "" : "; ") + l;
    k.reason += ". The GPU was throttled during the launch: " + text;
  }
}

void apply_runner_evidence(verdict::Comparison& c, const RunRecord& first,
                           const std::vector<RunRecord>& confirmations) {
  add_runner_evidence(c, first, confirmations);
  // The busy-GPU rule is settle_outcome's (outcome.hpp), on the same terms as the busy CPU.
  settle_outcome(c);
}

void add_runner_evidence(verdict::Comparison& c, const RunRecord& first) {
  std::vector<std::string> sources;
  for (const verdict::KeyComparison& k : c.keys) {
    if (!k.confirmation) continue;
    for (const verdict::ConfirmationResult& later : k.confirmation->later)
      if (std::find(sources.begin(), sources.end(), later.source) == sources.end())
        sources.push_back(later.source);
  }
  std::vector<RunRecord> confirmations;
  std::vector<std::string> unread;
  for (const std::string& source : sources) {
    std::error_code ec;
    if (!std::filesystem::is_directory(source, ec)) continue;  // a test's label, not a directory
    try {
      confirmations.push_back(load_run(source));
    } catch (const std::exception& error) {
      unread.push_back(source + ": not read: " + error.what());
    }
  }
  add_runner_evidence(c, first, confirmations);
  for (std::string& u : unread) c.runner_evidence.unread.push_back(std::move(u));
}

}  // namespace fabricgate::gate
