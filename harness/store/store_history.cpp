#include "harness/store/store_history.hpp"

#include "core/errors.hpp"

namespace fabricgate::store {

report::IndexedRun indexed_run(const StoredRun& run) {
  report::IndexedRun r;
  r.run_id = run.run_id;
  r.started_at = run.started_at;
  r.suite = run.suite;
  r.scenario = run.scenario;
  r.complete = run.complete;
  r.env = run.env;
  r.facts = run.facts;
  for (const StoredMedian& m : run.medians) {
    r.keys.emplace(m.key, report::KeyMedians{m.bytes, m.time_us, m.algbw_GBps, m.busbw_GBps});
  }
  return r;
}

std::vector<report::IndexedRun> indexed_runs(ResultsStore& store, const RunQuery& query) {
  std::vector<StoredRun> stored = store.runs(query);
  std::vector<report::IndexedRun> out;
  out.reserve(stored.size());
  for (StoredRun& s : stored) {
    out.push_back(indexed_run(s));
    s.medians.clear();
    s.medians.shrink_to_fit();
  }
  return out;
}

std::string choose_platform(ResultsStore& store, const std::string& wanted) {
  const std::vector<std::string> platforms = store.platforms();
  std::string names;
  for (const std::string& p : platforms) names += (names.empty() ? "" : ", ") + p;
  if (!wanted.empty()) {
    for (const std::string& p : platforms) {
      if (p == wanted) return p;
    }
    throw InputError(store.display(), "",
                     "runs of platform " + wanted + " (--platform); the store holds " +
                         (names.empty() ? "no runs" : names));
  }
  if (platforms.size() == 1) return platforms.front();
  throw InputError(store.display(), "",
                   platforms.empty()
                       ? "recorded runs; the store is empty (fabricgate store import results/)"
                       : "one platform, found " + names + "; choose one with --platform");
}

}  // namespace fabricgate::store
