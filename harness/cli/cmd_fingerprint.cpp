// Placeholder: replaced by the fingerprint implementation.
#include <CLI/CLI.hpp>

#include "harness/cli/commands.hpp"

namespace fabricgate::cli {
void add_fingerprint_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("fingerprint", "Print the platform fingerprint");
  cmd->callback([&exit_code] { exit_code = 0; });
}
}  // namespace fabricgate::cli
