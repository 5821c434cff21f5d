#include "harness/store/dashboard_runs.hpp"

#include "harness/gate/outcome.hpp"
#include "harness/store/store_history.hpp"

namespace fabricgate::store {

std::string host_of(const StoredRun& run) {
  const auto hosts = run.facts.find("hosts");
  if (hosts != run.facts.end() && hosts->is_array() && !hosts->empty()) {
    std::string out;
    for (const auto& h : *hosts)
      if (h.is_string()) out += (out.empty() ? "" : "+") + h.get<std::string>();
    if (!out.empty()) return out;
  }
  if (!run.fingerprint_digest.empty()) return "fingerprint " + run.fingerprint_digest.substr(0, 12);
  return "unknown host";
}

report::DashboardRun dashboard_run(const StoredRun& run) {
  report::DashboardRun d;
  d.run = indexed_run(run);
  d.host = host_of(run);
  for (const StoredMedian& m : run.medians)
    if (!m.verdict.empty()) d.verdicts[m.key] = m.verdict;
  // A store row may be written by anyone who can write the store: only the gate's own words.
  if (const auto o = run.facts.find("outcome"); o != run.facts.end() && o->is_string()) {
    const std::string word = o->get<std::string>();
    if (gate::is_outcome_word(word)) d.outcome = word;
  }
  if (const auto n = run.facts.find("node_findings"); n != run.facts.end() && n->is_array()) {
    for (const auto& f : *n) {
      if (!f.is_object()) continue;
      const std::string node = f.value("node", std::string());
      const std::string finding = f.value("finding", std::string());
      const std::string severity = f.value("severity", std::string());
      // Only the gate's own severity words; node and finding are shown escaped (site_esc).
      if (severity != "drain" && severity != "reboot-suggested" && severity != "monitor") continue;
      d.node_findings.push_back(node + ": " + finding + " (" + severity + ")");
    }
  }
  return d;
}

std::vector<report::DashboardPlatform> dashboard_platforms(ResultsStore& store,
                                                           const std::string& platform,
                                                           std::size_t last) {
  std::vector<std::string> names;
  if (platform.empty()) {
    names = store.platforms();
  } else {
    names.push_back(choose_platform(store, platform));
  }
  std::vector<report::DashboardPlatform> out;
  for (const std::string& p : names) {
    RunQuery q;
    q.platform = p;
    q.last = last;
    report::DashboardPlatform dp{p, {}};
    for (const StoredRun& r : store.runs(q)) dp.runs.push_back(dashboard_run(r));
    if (!dp.runs.empty()) out.push_back(std::move(dp));
  }
  return out;
}

}  // namespace fabricgate::store
