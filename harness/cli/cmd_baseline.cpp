// Placeholder: replaced by the baseline implementation.
#include <CLI/CLI.hpp>

#include "harness/cli/commands.hpp"

namespace fabricgate::cli {
void add_baseline_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("baseline", "Create or update a baseline");
  cmd->callback([&exit_code] { exit_code = 0; });
}
}  // namespace fabricgate::cli
