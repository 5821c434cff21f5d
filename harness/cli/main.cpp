// fabricgate: the harness CLI. Exit codes: 0 pass, 1 gate failure, 2 usage/input error,
// 3 infrastructure failure (docs/DESIGN.md).
#include <algorithm>
#include <iostream>

#include <CLI/CLI.hpp>

#include "core/errors.hpp"
#include "core/nearest_name.hpp"
#include "core/text_escape.hpp"
#include "fabricgate_version.hpp"
#include "harness/cli/commands.hpp"

int main(int argc, char** argv) {
  using fabricgate::ExitCode;
  CLI::App app{
      "fabricgate: catches GPU and cluster fabric performance regressions in CI.\n"
      "Exit codes: 0 pass, 1 gate failure, 2 usage or input error, 3 infrastructure failure (or a\n"
      "runner too busy to judge a performance failure).",
      // Named, not argv[0]: help and the man page say `fabricgate`, never a build-tree path.
      "fabricgate"};
  app.set_version_flag("--version", std::string("fabricgate ") + FABRICGATE_VERSION_TEXT);
  app.require_subcommand(1);
  int exit_code = 0;
  fabricgate::cli::add_fingerprint_command(app, exit_code);
  fabricgate::cli::add_run_command(app, exit_code);
  fabricgate::cli::add_compare_command(app, exit_code);
  fabricgate::cli::add_baseline_command(app, exit_code);
  fabricgate::cli::add_report_command(app, exit_code);
  fabricgate::cli::add_history_command(app, exit_code);
  fabricgate::cli::add_ab_command(app, exit_code);
  fabricgate::cli::add_publish_command(app, exit_code);
  fabricgate::cli::add_import_command(app, exit_code);
  fabricgate::cli::add_nodes_command(app, exit_code);
  fabricgate::cli::add_ack_command(app, exit_code);
  fabricgate::cli::add_calibrate_command(app, exit_code);
  fabricgate::cli::add_store_command(app, exit_code);
  fabricgate::cli::add_dashboard_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);  // --help / --version
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    // A mistyped command ("fabricgate rnu") gets the nearest one, as suite names do.
    if (argc > 1 && argv[1][0] != '-') {
      std::vector<std::string> commands;
      for (const CLI::App* sub : app.get_subcommands({})) commands.push_back(sub->get_name());
      const std::string typed = argv[1];
      if (std::find(commands.begin(), commands.end(), typed) == commands.end()) {
        if (const auto nearest = fabricgate::nearest_name(typed, commands))
          std::cerr << "fabricgate: no command \"" << fabricgate::report::printable(typed, 64)
                    << "\"; did you mean \"" << *nearest << "\"?\n";
      }
    }
    return static_cast<int>(ExitCode::input_error);
  } catch (const fabricgate::InputError& e) {
    std::cerr << "fabricgate: error: " << fabricgate::report::console_text(e.what()) << "\n";
    return static_cast<int>(ExitCode::input_error);
  } catch (const fabricgate::InfraError& e) {
    std::cerr << "fabricgate: infrastructure failure: "
              << fabricgate::report::console_text(e.what()) << "\n";
    return static_cast<int>(ExitCode::infra_failure);
  } catch (const std::exception& e) {
    std::cerr << "fabricgate: internal error: " << fabricgate::report::printable(e.what()) << "\n";
    return static_cast<int>(ExitCode::infra_failure);
  }
  return exit_code;
}
