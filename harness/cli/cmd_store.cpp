// fabricgate store import DIR | store info: the results store's own commands. `import`
// back-fills the store from run directories (bad ones are skipped with a warning, the rest go in
// one transaction); `info` prints the schema version and the runs per platform.
// Exit: 0 done, 2 bad input (no runs under DIR, bad --store), 3 the store failed.
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "core/errors.hpp"
#include "core/text_escape.hpp"
#include "harness/cli/commands.hpp"
#include "harness/fingerprint/host_key.hpp"
#include "harness/report/history.hpp"
#include "harness/store/results_store.hpp"
#include "harness/store/store_import.hpp"

namespace fabricgate::cli {

namespace {

namespace fs = std::filesystem;

struct StoreArgs {
  std::string dir = "results";
  std::string store;
  bool vouch = false;
};

int run_import(const StoreArgs& a) {
  std::error_code ec;
  if (!fs::is_directory(a.dir, ec)) throw InputError(a.dir, "", "a results directory to import");
  const fs::path root = report::holds_runs(a.dir) ? fs::path(a.dir).parent_path() : fs::path(a.dir);
  const store::StoreLocation where =
      store::resolve_store_location(a.store, root.empty() ? fs::path(".") : root);
  // Before the store is opened: an unusable key file is an input error that writes nothing.
  const std::string key = a.vouch ? fingerprint::require_host_key() : std::string();
  auto s = store::open_store(where);
  const store::ImportSummary summary = store::import_run_directories(*s, a.dir, key);
  for (const std::string& w : summary.warnings)
    std::cerr << report::console_text("fabricgate: warning: " + w) << "\n";
  std::cout << report::console_text(
      "imported " + std::to_string(summary.imported) + " run(s) into " + s->display() +
      " (schema v" + std::to_string(s->schema_version()) + ")" +
      (summary.skipped ? ", skipped " + std::to_string(summary.skipped) : std::string()) + "\n");
  if (a.vouch) {
    std::cout << "sealed " << summary.sealed
              << " run(s) with this machine's host key: they count as the level of the hosts "
                 "they name when judged here\n";
  } else {
    std::cout << "imported runs are unsealed: history and the dashboard show them, no host's "
                 "level is learnt from them (--vouch seals this runner's own)\n";
  }
  return 0;
}

int run_info(const StoreArgs& a) {
  const store::StoreLocation where = store::resolve_store_location(a.store, "results");
  auto s = store::open_store(where, store::Access::read);
  // Platform names are whatever the store's rows hold (a shared store is written by others):
  // each one made printable on its own line, then the whole text made safe for a CI log.
  std::string text =
      "store " + s->display() + ": schema v" + std::to_string(s->schema_version()) + "\n";
  for (const std::string& p : s->platforms())
    text += "  " + report::printable(p) + ": " + std::to_string(s->run_count(p)) + " runs\n";
  std::cout << report::console_text(text);
  return 0;
}

void add_store_option(CLI::App* cmd, StoreArgs& a) {
  cmd->add_option("--store", a.store,
                  "sqlite:PATH, postgresql://HOST/DB or a libpq conninfo; passwords only from "
                  "PGPASSWORD/PGPASSFILE "
                  "(default: $FABRICGATE_STORE, else sqlite:<results root>/fabricgate.sqlite)");
}

}  // namespace

void add_store_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<StoreArgs>();
  auto* cmd =
      app.add_subcommand("store", "The results store that history, change points and DRIFT read");
  cmd->footer(
      "Examples:\n"
      "  fabricgate store import results --store sqlite:results/fabricgate.sqlite\n"
      "  fabricgate store info --store postgresql://db.example/fabricgate");
  cmd->require_subcommand(1);
  auto* import = cmd->add_subcommand(
      "import", "Back-fill the store from run directories (<DIR>/<platform>/<run-id>/run.json)");
  import->footer(
      "Example:\n"
      "  fabricgate store import results --store postgresql://db.example/fabricgate");
  import->add_option("dir", args->dir, "Results root or one platform's directory")
      ->capture_default_str();
  add_store_option(import, *args);
  import->add_flag("--vouch", args->vouch,
                   "Seal the imported runs with this machine's host key, so they count as this "
                   "runner's own level (its runs from before the store, or before schema v5). "
                   "Only for directories no one else can write: a sealed row is trusted");
  import->callback([args, &exit_code] { exit_code = run_import(*args);
});
auto* info =
    cmd->add_subcommand("info", "Print the store's schema version and its runs per platform");
info->footer(
    "Example:\n"
    "  fabricgate store info --store sqlite:results/fabricgate.sqlite");
add_store_option(info, *args);
info->callback([args, &exit_code] { exit_code = run_info(*args); });
}  // namespace fabricgate::cli

}  // namespace fabricgate::cli
