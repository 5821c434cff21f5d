// fabricgate ack KEY --platform P --reason URL --who NAME --expires YYYY-MM-DD: adds an
// acknowledged failure to <baselines-dir>/acks.json (harness/gate/acks.hpp), to be reviewed and
// committed like a baseline. The entry and the file it joins are validated first (exit 2, nothing
// written); the file is written atomically.
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "core/text_escape.hpp"
#include "harness/cli/commands.hpp"
#include "harness/gate/acks.hpp"
#include "harness/model/output_paths.hpp"

namespace fabricgate::cli {

namespace {

struct AckArgs {
  gate::Ack ack;
  std::string baselines_dir = "baselines";
};

int run_ack(const AckArgs& a) {
  const std::string today = gate::utc_today();
  gate::validate_ack(a.ack, today);
  const std::filesystem::path file = std::filesystem::path(a.baselines_dir) / "acks.json";
  require_writable_file(file, "--baselines-dir");
  const gate::Acks existing = gate::find_acks(a.baselines_dir, today);  // InputError when bad
  nlohmann::json entries = nlohmann::json::array();
  for (const gate::Ack& e : existing.entries)
    entries.push_back({{"key", e.key},
                       {"platform", e.platform},
                       {"reason", e.reason},
                       {"who", e.who},
                       {"expires", e.expires}});
  entries.push_back({{"key", a.ack.key},
                     {"platform", a.ack.platform},
                     {"reason", a.ack.reason},
                     {"who", a.ack.who},
                     {"expires", a.ack.expires}});
  std::filesystem::create_directories(file.parent_path());
  write_json_atomically(file, {{"schema", gate::kAcksSchema}, {"acks", entries}});
  std::cout << report::console_text("acknowledged " + a.ack.key + " on " + a.ack.platform +
                                    " until " + a.ack.expires + " in " + file.string() + " (" +
                                    std::to_string(entries.size()) +
                                    " entries); commit it through a pull request\n");
  return 0;
}

}  // namespace

void add_ack_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<AckArgs>();
  auto* cmd = app.add_subcommand(
      "ack", "Acknowledge a known failure until a date (writes <baselines-dir>/acks.json)");
  cmd->footer(
      "Example:\n"
      "  fabricgate ack 'coll/nccl/all_reduce/*' --platform h200-x8 --reason "
      "https://github.com/org/repo/issues/12 --who alice --expires 2027-01-15");
  cmd->add_option("key", a->ack.key, "Benchmark key or glob pattern (* and ?)")->required();
  cmd->add_option("--platform", a->ack.platform, "Platform key")->required();
  cmd->add_option("--reason", a->ack.reason, "URL of the issue that tracks it")->required();
  cmd->add_option("--who", a->ack.who, "Who acknowledges it")->required();
  cmd->add_option("--expires", a->ack.expires,
                  "YYYY-MM-DD, at most 180 days ahead: from this date on the key fails again")
      ->required();
  cmd->add_option("--baselines-dir", a->baselines_dir, "Directory of baselines (acks.json there)")
      ->capture_default_str();
  cmd->callback([a, &exit_code] { exit_code = run_ack(*a); });
}

}  // namespace fabricgate::cli
