#include "harness/cli/store_hook.hpp"

#include <iostream>
#include <unordered_map>

#include "core/text_escape.hpp"
#include "harness/gate/drift.hpp"
#include "harness/store/results_store.hpp"

namespace fabricgate::cli {

namespace fs = std::filesystem;

namespace {

std::optional<double> value_of(gate::Metric metric, double time_us, double algbw,
                               std::optional<double> busbw) {
  switch (metric) {
    case gate::Metric::time_us: return time_us > 0 ? std::optional<double>(time_us) : std::nullopt;
    case gate::Metric::algbw_GBps: return algbw > 0 ? std::optional<double>(algbw) : std::nullopt;
    case gate::Metric::busbw_GBps: return busbw;
  }
  return std::nullopt;
}

// Each compared key's series of its judged metric: the store's newest runs, then this run.
std::unordered_map<std::string, gate::KeySeries> series_for(store::ResultsStore& s,
                                                            const RunRecord& run,
                                                            const gate::Comparison& comparison,
                                                            std::size_t window) {
  store::RunQuery q;
  q.platform = run.platform;
  q.last = window > 0 ? window - 1 : 0;
  q.exclude_run_id = run.run_id;
  const std::vector<store::StoredRun> history = s.runs(q);
  std::unordered_map<std::string, gate::Metric> wanted;
  for (const gate::KeyComparison& k : comparison.keys) {
    if (gate::drift_applies_to(k.verdict)) wanted.emplace(k.key, gate::drift_metric(k));
  }
  std::unordered_map<std::string, gate::KeySeries> out;
  for (const store::StoredRun& r : history) {
    for (const store::StoredMedian& m : r.medians) {
      const auto w = wanted.find(m.key);
      if (w == wanted.end()) continue;
      if (const auto v = value_of(w->second, m.time_us, m.algbw_GBps, m.busbw_GBps)) {
        gate::KeySeries& series = out[m.key];
        series.run_ids.push_back(r.run_id);
        series.values.push_back(*v);
      }
    }
  }
  for (const BenchmarkResult& b : run.benchmarks) {
    const auto w = wanted.find(b.key);
    const auto series = out.find(b.key);
    if (w == wanted.end() || series == out.end()) continue;
    if (const auto v = value_of(w->second, b.time_us, b.algbw_GBps, b.busbw_GBps)) {
      series->second.run_ids.push_back(run.run_id);
      series->second.values.push_back(*v);
    }
  }
  return out;
}

}  // namespace

fs::path results_root_of(const RunRecord& run) {
  if (run.directory.empty()) return "results";
  fs::path dir = fs::path(run.directory).lexically_normal();
  if (!dir.has_filename()) dir = dir.parent_path();  // "results/p/r/"
  const fs::path root = dir.parent_path().parent_path();
  return root.empty() ? fs::path(".") : root;
}

bool judge_drift_and_record(const store::StoreLocation& location, const RunRecord& run,
                            const Baseline* baseline, gate::Comparison& comparison) {
  if (location.kind == store::StoreKind::none) return true;
  try {
    auto s = store::open_store(location);
    // Without a baseline the defaults hold, spread over the keys this run compared.
    TolerancePolicy gate_policy = baseline ? baseline->policy : TolerancePolicy::defaults();
    if (!baseline) set_family_size(gate_policy, comparison.keys.size());
    const gate::DriftPolicy policy = gate::drift_policy_from(gate_policy);
    const auto series = series_for(*s, run, comparison, policy.window);
    const std::size_t drifted =
        gate::apply_drift(comparison, policy, gate::ChangePointOptions{},
                          [&](const gate::KeyComparison& k) -> const gate::KeySeries* {
                            const auto it = series.find(k.key);
                            return it == series.end() ? nullptr : &it->second;
                          });
    if (drifted > 0) {
      comparison.warnings.push_back(std::to_string(drifted) +
                                    " key(s) DRIFT: the store's recent runs (" + s->display() +
                                    ") sit on a level worse than the drift threshold");
    }
    s->record(store::stored_run_from(run, &comparison));
    return true;
  } catch (const store::StoreError& e) {
    std::cerr << "fabricgate: infrastructure failure: " << report::console_text(e.what())
              << " (the run was gated without DRIFT and not recorded)\n";
    return false;
  }
}

}  // namespace fabricgate::cli
