#include "harness/cli/store_hook.hpp"

#include <iostream>

#include "core/text_escape.hpp"
#include "harness/store/results_store.hpp"

namespace fabricgate::cli {

namespace fs = std::filesystem;

fs::path results_root_of(const RunRecord& run) {
  if (run.directory.empty()) return "results";
  fs::path dir = fs::path(run.directory).lexically_normal();
  if (!dir.has_filename()) dir = dir.parent_path();  // "results/p/r/"
  const fs::path root = dir.parent_path().parent_path();
  return root.empty() ? fs::path(".") : root;
}

store::StoreLocation store_for_run(const std::string& flag, const RunRecord& run) {
  const store::StoreLocation where = store::resolve_store_location(flag, "results");
  return flag.empty() && where.origin == "default"
             ? store::resolve_store_location("", results_root_of(run))
             : where;
}

std::optional<gate::RunHistory> load_history(const store::StoreLocation& location,
                                             const RunRecord& run, std::size_t window,
                                             bool& failed) {
  if (location.kind == store::StoreKind::none) return std::nullopt;
  try {
    auto s = store::open_store(location);
    store::RunQuery q;
    q.platform = run.platform;
    q.last = window > 0 ? window - 1 : 0;
    q.exclude_run_id = run.run_id;
    q.started_before = run.started_at;  // a re-judged run sees what its first judgement saw
    gate::RunHistory h;
    h.source = s->display();
    for (const store::StoredRun& r : s->runs(q)) {
      gate::HistoryRun hr{r.run_id, r.host_id, {}};
      for (const store::StoredMedian& m : r.medians)
        hr.medians.push_back({m.key, m.time_us, m.algbw_GBps, m.busbw_GBps});
      h.runs.push_back(std::move(hr));
    }
    return h;
  } catch (const store::StoreError& e) {
    std::cerr << "fabricgate: infrastructure failure: " << report::console_text(e.what())
              << " (the run is judged without DRIFT)\n";
    failed = true;
    return std::nullopt;
  }
}

bool record_run(const store::StoreLocation& location, const RunRecord& run,
                const gate::Comparison& comparison) {
  if (location.kind == store::StoreKind::none) return true;
  try {
    store::open_store(location)->record(store::stored_run_from(run, &comparison));
    return true;
  } catch (const store::StoreError& e) {
    std::cerr << "fabricgate: infrastructure failure: " << report::console_text(e.what())
              << " (the run was judged but not recorded)\n";
    return false;
  }
}

}  // namespace fabricgate::cli
