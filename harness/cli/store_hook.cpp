#include "harness/cli/store_hook.hpp"

#include <iostream>

#include <set>

#include "core/text_escape.hpp"
#include "harness/fingerprint/host_key.hpp"
#include "harness/store/results_store.hpp"
#include "harness/store/row_seal.hpp"

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
                                             store::Access access, std::string& failure) {
  if (location.kind == store::StoreKind::none) return std::nullopt;
  std::error_code ec;
  if (access == store::Access::read && location.kind == store::StoreKind::sqlite &&
      !fs::exists(location.target, ec))
    return std::nullopt;  // no store yet: no history, nothing to report
  try {
    auto s = store::open_store(location, access);
    store::RunQuery q;
    q.platform = run.platform;
    q.last = window > 0 ? window - 1 : 0;
    q.exclude_run_id = run.run_id;
    q.started_before = run.started_at;  // a re-judged run sees what its first judgement saw
    // This host's runs: DRIFT follows one machine, and the change question reads its own level
    // (a shared store's newest runs of the platform may hold none of this host's).
    q.host = run.host_id;
    // Only rows this machine sealed stand for a level: anyone who can write the store could
    // plant the others (row_seal.hpp). Without a key here, none does.
    const std::optional<std::string> key = fingerprint::read_host_key();
    std::set<std::string> unsealed;
    const auto history_runs = [&](const store::RunQuery& query) {
      std::vector<gate::HistoryRun> out;
      for (const store::StoredRun& r : s->runs(query)) {
        if (!key || !store::seal_holds(r, *key)) {
          unsealed.insert(r.run_id);
          continue;
        }
        gate::HistoryRun hr{r.run_id, r.host_id, {}, r.session_id, r.suite, r.scenario};
        for (const store::StoredMedian& m : r.medians)
          hr.medians.push_back({m.key, m.time_us, m.algbw_GBps, m.busbw_GBps, m.verdict});
        out.push_back(std::move(hr));
      }
      return out;
    };
    gate::RunHistory h;
    h.source = s->display();
    h.runs = history_runs(q);
    if (!run.host_id.empty()) {
      // The host's first runs: its first accepted level stays a reference however far the
      // rolling one moves (harness/gate/host_history.hpp).
      store::RunQuery first = q;
      first.oldest = true;
      first.last = window;
      first.sealed_only = true;  // unsealed legacy rows must not fill the oldest window
      h.earliest = history_runs(first);
    }
    h.unsealed_runs = unsealed.size();
    h.host_key_here = key.has_value();
    return h;
  } catch (const store::StoreError& e) {
    failure = std::string(e.what()) + " (the run was judged without DRIFT)";
    return std::nullopt;
  }
}

void report_history_failure(const std::string& failure) {
  if (failure.empty()) return;
  std::cout.flush();  // the verdict (stdout) comes first in a log that holds both streams
  std::cerr << "fabricgate: infrastructure failure: " << report::console_text(failure) << "\n";
}

namespace {

void report_not_recorded(const store::StoreLocation& location, const RunRecord& run,
                         const std::string& why) {
  const std::string dir = run.directory.empty() ? std::string("its run directory") : run.directory;
  std::cout.flush();
  std::cerr
      << report::console_text(
             "fabricgate: infrastructure failure: " + why +
             "\nfabricgate: the run was judged but NOT recorded in the store; it is kept in " +
             dir + " (record it later: fabricgate store import " + dir + " --store " +
             location.display + ")")
      << "\n";
}

}  // namespace

bool record_run(const store::StoreLocation& location, const RunRecord& run,
                const verdict::Comparison& comparison, const std::string& history_failure,
                const std::string& host_key) {
  if (location.kind == store::StoreKind::none) return true;
  if (!history_failure.empty()) {  // the same store just failed: not waited for a second time
    report_not_recorded(location, run, history_failure);
    return false;
  }
  try {
    store::StoredRun row = store::stored_run_from(run, &comparison);
    if (!host_key.empty()) row.host_seal = store::row_seal(row, host_key);
    store::open_store(location)->record(row);
    return true;
  } catch (const store::StoreError& e) {
    report_not_recorded(location, run, e.what());
    return false;
  }
}

}  // namespace fabricgate::cli
