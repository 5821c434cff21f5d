#pragma once
// Each subcommand lives in its own cmd_<name>.cpp and adds itself to the app. A command's callback
// stores its exit code in `exit_code`; errors are thrown (InputError → 2, InfraError → 3) and
// mapped in main.cpp, so every command follows the contract in docs/DESIGN.md.
namespace CLI {
class App;
}

namespace fabricgate::cli {

void add_fingerprint_command(CLI::App& app, int& exit_code);
void add_run_command(CLI::App& app, int& exit_code);
void add_compare_command(CLI::App& app, int& exit_code);
void add_baseline_command(CLI::App& app, int& exit_code);
void add_report_command(CLI::App& app, int& exit_code);
void add_history_command(CLI::App& app, int& exit_code);
void add_ab_command(CLI::App& app, int& exit_code);
void add_publish_command(CLI::App& app, int& exit_code);
void add_import_command(CLI::App& app, int& exit_code);
void add_nodes_command(CLI::App& app, int& exit_code);
void add_ack_command(CLI::App& app, int& exit_code);
void add_calibrate_command(CLI::App& app, int& exit_code);
void add_store_command(CLI::App& app, int& exit_code);
void add_dashboard_command(CLI::App& app, int& exit_code);

}  // namespace fabricgate::cli
