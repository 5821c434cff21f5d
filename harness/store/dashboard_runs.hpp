#pragma once
// The results store as the dashboard's source (report/dashboard_site.hpp): the newest runs of
// each platform with their verdicts and the host that ran them. SQLite and PostgreSQL alike,
// through ResultsStore.
#include <cstddef>
#include <string>
#include <vector>

#include "harness/report/dashboard_site.hpp"
#include "harness/store/results_store.hpp"

namespace fabricgate::store {

// The hosts recorded in the run's facts ("a", "a+b" for several), else the first 12 digits of
// its fingerprint digest, else "unknown host".
std::string host_of(const StoredRun& run);

report::DashboardRun dashboard_run(const StoredRun& run);

// The precision of the labels over `runs` that started in the `days` before `now` (ISO 8601
// UTC): a label counts when its run is one of them.
report::LabelPrecision label_precision(const std::vector<report::DashboardRun>& runs,
                                       const std::vector<FindingLabel>& labels,
                                       const std::string& now, std::size_t days = 30);

// `platform` empty: every platform in the store. `last` 0: every run. Throws InputError naming
// the store when `platform` is not in it. `now` (ISO 8601 UTC) ends the precision's window.
std::vector<report::DashboardPlatform> dashboard_platforms(ResultsStore& store,
                                                           const std::string& platform,
                                                           std::size_t last,
                                                           const std::string& now);

}  // namespace fabricgate::store
