#include "harness/gate/host_history.hpp"

#include <algorithm>
#include <set>

#include "harness/gate/outcome.hpp"
#include "harness/verdict/verdict_table.hpp"

namespace fabricgate::gate {

const std::vector<HostLaunch>* HostHistory::of(const std::string& key,
                                               verdict::Metric metric) const {
  const auto it = launches.find(key);
  if (it == launches.end()) return nullptr;
  const auto& v = it->second[static_cast<std::size_t>(metric)];
  return v.empty() ? nullptr : &v;
}

bool verdict_keeps_host_level(const std::string& verdict, bool software_as_baseline) {
  if (verdict.empty()) return true;  // recorded without a comparison (--no-compare, import)
  if (verdict == kBusyLaunchVerdict) return false;  // measured on a busy runner
  for (const verdict::VerdictFacts& f : verdict::verdict_table()) {
    if (verdict != f.name) continue;
    if (verdict::verdict_change_unjudged(f.verdict)) return software_as_baseline;
    return f.joins_window;
  }
  return false;  // a verdict this build does not know: not trusted as a level
}

namespace {

bool same_or_unknown(const std::string& a, const std::string& b) {
  return a.empty() || b.empty() || a == b;
}

void add(std::vector<HostLaunch>& to, const HistoryRun& r, std::optional<double> value) {
  if (value && *value > 0) to.push_back({r.run_id, r.session_id, *value});
}

}  // namespace

HostHistory host_history_from(const RunHistory& history, const RunRecord& run,
                              bool software_as_baseline) {
  HostHistory h;
  h.host_id = run.host_id;
  h.source = history.source;
  if (run.host_id.empty()) return h;
  const std::string scenario = run.scenario.empty() ? "default" : run.scenario;
  for (const HistoryRun& r : history.runs) {
    if (r.host_id != run.host_id || r.run_id == run.run_id) continue;
    if (!same_or_unknown(r.suite, run.suite)) continue;
    if ((r.scenario.empty() ? "default" : r.scenario) != scenario) continue;
    bool used = false;
    for (const HistoryMedian& m : r.medians) {
      if (!verdict_keeps_host_level(m.verdict, software_as_baseline)) continue;
      auto& slots = h.launches[m.key];
      add(slots[static_cast<std::size_t>(verdict::Metric::time_us)], r, m.time_us);
      add(slots[static_cast<std::size_t>(verdict::Metric::algbw_GBps)], r, m.algbw_GBps);
      add(slots[static_cast<std::size_t>(verdict::Metric::busbw_GBps)], r, m.busbw_GBps);
      used = true;
    }
    h.runs += used ? 1 : 0;
  }
  return h;
}

}  // namespace fabricgate::gate
