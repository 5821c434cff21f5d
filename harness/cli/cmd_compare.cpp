// Placeholder: replaced by the compare implementation.
#include <CLI/CLI.hpp>

#include "harness/cli/commands.hpp"

namespace fabricgate::cli {
void add_compare_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("compare", "Compare a run with its baseline");
  cmd->callback([&exit_code] { exit_code = 0; });
}
}  // namespace fabricgate::cli
