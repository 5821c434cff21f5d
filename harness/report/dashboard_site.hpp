#pragma once
// `fabricgate dashboard`: a static site across the runs of a results store, for GitHub Pages or
// any file server. An index with the verdict of every run and a summary per host, and one page
// per platform with each key's trend (one series per host) and its change points marked, found
// by the same detector as `history` and the HTML report (trend_change_points.hpp).
//
// Like the HTML report, every page is self-contained and fetches nothing: no script, no
// stylesheet, font or image from anywhere, a Content-Security-Policy that forbids it, and links
// only between the site's own pages. The renderer reads plain data (DashboardRun); where it comes
// from (SQLite or PostgreSQL) is harness/store/dashboard_runs.hpp's business.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "harness/report/history.hpp"

namespace fabricgate::report {

struct DashboardRun {
  IndexedRun run;    // medians per key, start time, suite, scenario
  std::string host;  // the host(s) that ran it, else the fingerprint digest's first 12 digits
  std::map<std::string, std::string> verdicts;  // key -> verdict name; empty: never compared
  // The gate's outcome when the run was recorded (gate::outcome_word: PASS, FAIL, NOT JUDGED, NO
  // BASELINE); empty for rows recorded before it was kept, whose headline comes from the keys.
  std::string outcome;
  // The nodes the run blamed: "NODE: FINDING (severity)", severity one of node_actions.hpp's.
  std::vector<std::string> node_findings = {};
};

// The gate's measured precision on a platform: what people labelled the findings of its runs
// (`fabricgate ack --label`, schema v7), over the runs shown that started in the `days` before
// the page was made.
struct LabelPrecision {
  std::size_t days = 30;
  std::size_t failing_runs = 0;             // runs in the window whose outcome is FAIL
  std::size_t unlabelled_failing_runs = 0;  // of those, runs with no label at all
  std::size_t real = 0;
  std::size_t expected = 0;
  std::size_t false_alarm = 0;
  std::size_t labelled() const { return real + expected + false_alarm; }
};

struct DashboardPlatform {
  std::string platform;
  std::vector<DashboardRun> runs;  // oldest first
  LabelPrecision precision = {};
  std::size_t stored_runs = 0;  // runs of the platform in the store (runs.size() when all shown)
};

struct DashboardOptions {
  std::string source;          // the store's display form (no credentials)
  std::string generated_at;    // ISO 8601 UTC
  std::size_t max_keys = 400;  // keys with a trend section per platform (those that stepped first)
  std::size_t last = 0;        // the bound on runs per platform (0: none), said on the pages
  // The acknowledged failures in force ("KEY on PLATFORM until DATE by WHO: URL"), from
  // <baselines-dir>/acks.json; `acks_source` names the file ("" when there is none).
  std::vector<std::string> active_acks = {};
  std::string acks_source = {};
};

struct DashboardPage {
  std::string file;  // relative to the output directory: index.html, platform-<p>.html
  std::string html;
};

// "precision 83 % (5 of 6 labelled findings real or expected, 1 false alarm) ..." for a page.
std::string precision_text(const LabelPrecision& p);

// "FAIL", "PASS" or "NOT GATED" for one run from its key verdicts.
std::string run_verdict(const DashboardRun& run);

// The site's pages; platforms must be safe names (they become file names).
std::vector<DashboardPage> render_dashboard(const std::vector<DashboardPlatform>& platforms,
                                            const DashboardOptions& options);

}  // namespace fabricgate::report
