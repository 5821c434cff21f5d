// Placeholder: replaced by the run implementation.
#include <CLI/CLI.hpp>

#include "harness/cli/commands.hpp"

namespace fabricgate::cli {
void add_run_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("run", "Run a suite");
  cmd->callback([&exit_code] { exit_code = 0; });
}
}  // namespace fabricgate::cli
