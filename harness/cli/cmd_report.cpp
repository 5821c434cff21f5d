// Placeholder: replaced by the report implementation.
#include <CLI/CLI.hpp>

#include "harness/cli/commands.hpp"

namespace fabricgate::cli {
void add_report_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("report", "Render a report");
  cmd->callback([&exit_code] { exit_code = 0; });
}
}  // namespace fabricgate::cli
