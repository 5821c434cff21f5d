#include "harness/store/stored_run.hpp"
#include "harness/cluster/node_actions.hpp"
#include "harness/gate/outcome.hpp"
#include "harness/model/counters/counters_json.hpp"
#include "harness/verdict/finding_ids.hpp"

#include <set>
#include <unordered_map>

#include <fmt/format.h>

namespace fabricgate::store {

using nlohmann::json;

json fingerprint_facts(const RunRecord& run) {
  json facts = json::object();
  if (!run.fingerprint.present && run.nodes.empty() && run.capture.env_overrides.empty())
    return facts;
  facts["versions"] = run.fingerprint.versions;
  facts["identity"] = run.fingerprint.identity;
  if (!run.nodes.empty()) {
    // Facts every node shares; a node that differs is the cluster check's business, not history's.
    std::map<std::string, std::string> shared = run.nodes.front().facts;
    for (const NodeRecord& n : run.nodes) {
      for (auto it = shared.begin(); it != shared.end();) {
        const auto other = n.facts.find(it->first);
        it = other == n.facts.end() || other->second != it->second ? shared.erase(it)
                                                                   : std::next(it);
      }
    }
    facts["nodes"] = shared;
    facts["node_count"] = run.nodes.size();
  }
  // The hosts that ran it: two machines of one platform key are told apart (dashboard per host,
  // a step that is a change of machine shows as one in "what changed").
  std::set<std::string> hosts;
  for (const RankInfo& r : run.ranks)
    if (!r.host.empty()) hosts.insert(r.host);
  if (!hosts.empty()) facts["hosts"] = hosts;
  facts["env"] = run.capture.env_overrides;
  if (!run.capture.nccl_version.empty())
    facts["capture"] = {{"nccl", run.capture.nccl_version}, {"network", run.capture.network}};
  return facts;
}

std::string fingerprint_digest(const json& facts) {
  if (facts.empty()) return "";
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : facts.dump()) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return fmt::format("{:016x}", h);
}

StoredRun stored_run_from(const RunRecord& run, const verdict::Comparison* comparison) {
  StoredRun s;
  s.platform = run.platform;
  s.run_id = run.run_id;
  s.started_at = run.started_at;
  s.suite = run.suite;
  s.scenario = run.scenario;
  s.complete = run.complete;
  s.facts = fingerprint_facts(run);
  s.fingerprint_digest = fingerprint_digest(s.facts);
  // The gate's own outcome, settled once (outcome.hpp): the dashboard's headline for the run. Kept
  // out of the fingerprint digest above, which groups runs by machine and software.
  if (comparison) s.facts["outcome"] = gate::outcome_word(*comparison);
  // The nodes it blamed, with the severity of each finding (node_actions.hpp): the dashboard's
  // node column. Also outside the digest.
  if (comparison) {
    json blamed = json::array();
    for (const verdict::ClusterFinding& f : comparison->cluster_findings) {
      if (f.node.empty() || f.id == verdict::finding_id::below_roofline ||
          f.id == verdict::finding_id::slow_pair)
        continue;
      blamed.push_back(
          {{"node", f.node},
           {"finding", f.id},
           {"severity", cluster::severity_name(cluster::finding_severity(f).severity)}});
    }
    if (!blamed.empty()) s.facts["node_findings"] = std::move(blamed);
  }
  if (run.runner_counters.present) s.runner_counters = counters::compact_json(run.runner_counters);
  s.host_id = run.host_id;
  s.session_id = run.session_id;
  for (const NodeRecord& n : run.nodes) s.nodes.push_back(n.hostname.empty() ? n.name : n.hostname);
  s.env = run.capture.env_overrides;
  for (const auto& [name, value] : run.scenario_env) s.env[name] = value;
  std::unordered_map<std::string, const char*> verdicts;
  if (comparison) {
    // A launch of a busy runner is kept, but marked: it must not become the host's level.
    const bool busy = gate::measured_on_busy_runner(*comparison);
    for (const verdict::KeyComparison& k : comparison->keys)
      verdicts.emplace(k.key, busy ? gate::kBusyLaunchVerdict : verdict::verdict_name(k.verdict));
  }
  s.medians.reserve(run.benchmarks.size());
  for (const BenchmarkResult& b : run.benchmarks) {
    if (b.status != ResultStatus::ok || b.has_error_note()) continue;  // no believable median
    StoredMedian m{b.key, b.bytes, b.time_us, b.algbw_GBps, b.busbw_GBps, ""};
    if (const auto v = verdicts.find(b.key); v != verdicts.end()) m.verdict = v->second;
    s.medians.push_back(std::move(m));
  }
  return s;
}

}  // namespace fabricgate::store
