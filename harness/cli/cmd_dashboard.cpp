// fabricgate dashboard --store URL --out DIR: a static site across the runs of a results store
// (report/dashboard_site.hpp): an index of verdicts per run and per host, and per platform each
// key's trend with change points marked. Plain files that fetch nothing, for GitHub Pages or any
// file server. Exit: 0 written, 2 bad input (store URL, output directory, unknown platform, an
// empty store), 3 the store failed.
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "harness/cli/commands.hpp"
#include "harness/gate/acks.hpp"
#include "harness/launch/run_assembly.hpp"
#include "harness/model/baseline_location.hpp"
#include "harness/model/output_paths.hpp"
#include "harness/report/dashboard_site.hpp"
#include "harness/store/dashboard_runs.hpp"
#include "harness/store/results_store.hpp"

namespace fabricgate::cli {

namespace {

constexpr std::size_t kDefaultLast = 1000;

struct DashboardArgs {
  std::string store;
  std::string out;
  std::string platform;
  // The newest runs per platform it reads: with every run of a long history the site took
  // 6.5 GB and more than 600 s for 10^5 runs (issue 58); the bound is said on the pages.
  std::size_t last = kDefaultLast;
  bool all_runs = false;
  std::size_t max_keys = 400;
  std::string baselines_dir = kBaselinesDir;
};

int run_dashboard(const DashboardArgs& a) {
  if (!a.platform.empty()) require_safe_name(a.platform, "--platform", "");
  const store::StoreLocation where = store::resolve_store_location(a.store, "results");
  if (where.kind == store::StoreKind::none)
    throw InputError(
        "dashboard: --store none has no runs to show; give sqlite:PATH or a "
        "PostgreSQL URL");
  require_writable_directory(a.out, "--out");
  // The acks in force, listed on the index; a malformed file is an input error before anything.
  const std::string today = gate::utc_today();
  const gate::Acks acks = gate::find_acks(a.baselines_dir, today);
  const std::string now = launch::utc_now_iso8601();
  auto s = store::open_store(where, store::Access::read);
  const std::vector<report::DashboardPlatform> platforms =
      store::dashboard_platforms(*s, a.platform, a.all_runs ? 0 : a.last, now);
  if (platforms.empty())
    throw InputError(s->display(), "", "a store with recorded runs, found none");
  report::DashboardOptions options;
  options.source = s->display();
  options.generated_at = now;
  options.acks_source = acks.source;
  for (const gate::Ack& ack : acks.entries) {
    if (today >= ack.expires) continue;  // expired: it holds nothing any more
    options.active_acks.push_back(ack.what() + " on " + ack.platform + " until " + ack.expires +
                                  " by " + ack.who + ": " + ack.reason);
  }
  options.max_keys = a.max_keys;
  options.last = a.all_runs ? 0 : a.last;
  std::size_t runs = 0;
  for (const report::DashboardPlatform& p : platforms) runs += p.runs.size();
  const std::vector<report::DashboardPage> pages = report::render_dashboard(platforms, options);
  for (const report::DashboardPage& page : pages) {
    // Page names come from store rows: never a path (dashboard_site.cpp platform_file).
    if (!is_safe_name(page.file))
      throw InputError(page.file, "dashboard page", "a file name without '/' or '..'");
  }
  for (const report::DashboardPage& page : pages)
    write_file_atomically(std::filesystem::path(a.out) / page.file, page.html);
  std::cout << "dashboard of " << runs << " run(s), " << platforms.size() << " platform(s) from "
            << s->display() << " -> " << (std::filesystem::path(a.out) / "index.html").string()
            << "\n";
  return 0;
}

}  // namespace

void add_dashboard_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<DashboardArgs>();
  auto* cmd = app.add_subcommand(
      "dashboard",
      "Write a static site of the store's runs: verdicts per run and per host, each key's trend "
      "with change points marked (no server, no script, nothing fetched; publish DIR on GitHub "
      "Pages)");
  cmd->footer(
      "Example:\n"
      "  fabricgate dashboard --store sqlite:results/fabricgate.sqlite --out site");
  cmd->add_option("--store", a->store,
                  "sqlite:PATH, postgresql://HOST/DB or a libpq conninfo (default: "
                  "$FABRICGATE_STORE, else sqlite:results/fabricgate.sqlite)");
  cmd->add_option("--out", a->out,
                  "Directory the pages are written to (index.html, "
                  "platform-<platform>.html)")
      ->required()
      ->type_name("DIR");
  cmd->add_option("--platform", a->platform, "Only this platform (default: every platform)");
  auto* last = cmd->add_option("--last", a->last,
                               "The newest N runs per platform (default 1000; the pages say when "
                               "older runs were left out)")
                   ->type_name("N")
                   ->check(CLI::Range(std::size_t{2}, std::size_t{100000}));
  cmd->add_flag("--all-runs", a->all_runs,
                "Every run of every platform (memory and time grow with the history)")
      ->excludes(last);
  cmd->add_option("--max-keys", a->max_keys,
                  "Keys with a trend section per platform; keys with change points come first")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000}))
      ->capture_default_str();
  cmd->add_option("--baselines-dir", a->baselines_dir,
                  "Directory whose acks.json lists the acknowledged failures shown on the index")
      ->capture_default_str();
  cmd->callback([a, &exit_code] { exit_code = run_dashboard(*a); });
}

}  // namespace fabricgate::cli
