// fabricgate ack KEY|--finding ID [--node N] --platform P --reason URL --who NAME --expires
// YYYY-MM-DD: adds an acknowledged failure to <baselines-dir>/acks.json (harness/gate/acks.hpp), to
// be reviewed and committed like a baseline. The entry and the file it joins are validated first
// (exit 2, nothing written); the file is written atomically.
// With --label (ack_label.hpp) it records instead, in the results store, what a finding of a
// recorded run turned out to be: the dashboard's measured precision counts these.
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "core/text_escape.hpp"
#include "harness/cli/ack_label.hpp"
#include "harness/cli/commands.hpp"
#include "harness/gate/acks.hpp"
#include "harness/model/baseline_location.hpp"
#include "harness/model/output_paths.hpp"

namespace fabricgate::cli {

namespace {

struct AckArgs {
  gate::Ack ack;
  std::string baselines_dir = kBaselinesDir;
  std::string label;  // --label: record a label in the store instead (ack_label.hpp)
  std::string run_id;
  std::string store;
};

nlohmann::json entry_json(const gate::Ack& e) {
  nlohmann::json j = nlohmann::json::object();
  if (!e.key.empty()) j["key"] = e.key;
  if (!e.finding.empty()) j["finding"] = e.finding;
  if (!e.node.empty()) j["node"] = e.node;
  j["platform"] = e.platform;
  j["reason"] = e.reason;
  j["who"] = e.who;
  j["expires"] = e.expires;
  return j;
}

int run_ack(const AckArgs& a) {
  if (!a.label.empty()) {
    if (!a.ack.expires.empty())
      throw InputError("--expires goes with an ack, not a --label (a label does not expire)");
    return record_finding_label({a.label, a.run_id, a.ack.platform, a.ack.key, a.ack.finding,
                                 a.ack.node, a.ack.who, a.ack.reason, a.store});
  }
  if (!a.run_id.empty() || !a.store.empty())
    throw InputError("--run and --store go with --label (an ack is written to acks.json)");
  if (a.ack.reason.empty()) throw InputError("--reason: the URL of the issue that tracks it");
  if (a.ack.expires.empty()) throw InputError("--expires: YYYY-MM-DD, at most 180 days ahead");
  const std::string today = gate::utc_today();
  gate::validate_ack(a.ack, today);
  const std::filesystem::path file = std::filesystem::path(a.baselines_dir) / "acks.json";
  require_writable_file(file, "--baselines-dir");
  const gate::Acks existing = gate::find_acks(a.baselines_dir, today);  // InputError when bad
  nlohmann::json entries = nlohmann::json::array();
  for (const gate::Ack& e : existing.entries) entries.push_back(entry_json(e));
  entries.push_back(entry_json(a.ack));
  std::filesystem::create_directories(file.parent_path());
  write_json_atomically(file, {{"schema", gate::kAcksSchema}, {"acks", entries}});
  std::cout << report::console_text("acknowledged " + a.ack.what() + " on " + a.ack.platform +
                                    " until " + a.ack.expires + " in " + file.string() + " (" +
                                    std::to_string(entries.size()) +
                                    " entries); commit it through a pull request\n");
  return 0;
}

}  // namespace

void add_ack_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<AckArgs>();
  auto* cmd = app.add_subcommand(
      "ack",
      "Acknowledge a known failure until a date (writes <baselines-dir>/acks.json), or --label "
      "what a recorded finding was (false-alarm, real, expected) in the results store");
  cmd->footer(
      "Example:\n"
      "  fabricgate ack 'coll/nccl/all_reduce/*' --platform h200-x8 --reason "
      "https://github.com/org/repo/issues/12 --who alice --expires 2027-01-15\n"
      "  fabricgate ack --finding HOST-OUTLIER --node gpu-07 --platform h200-x8 --reason "
      "https://github.com/org/repo/issues/13 --who bob --expires 2027-01-15\n"
      "  fabricgate ack --label false-alarm --run RUN_ID --platform h200-x8 --who carol "
      "'coll/nccl/all_reduce/float32/bytes:1048576' --store sqlite:results/fabricgate.sqlite");
  auto* key = cmd->add_option("key", a->ack.key, "Benchmark key or glob pattern (* and ?)");
  auto* finding = cmd->add_option("--finding", a->ack.finding,
                                  "A runner finding's id or glob (HOST-OUTLIER, DEGRADED-LINK, "
                                  "NODE-MISMATCH) instead of a key");
  key->excludes(finding);
  cmd->add_option("--node", a->ack.node,
                  "With --finding: the node name or glob (default: every node)")
      ->needs(finding);
  cmd->add_option("--platform", a->ack.platform, "Platform key")->required();
  cmd->add_option("--reason", a->ack.reason,
                  "URL of the issue that tracks it (optional with --label)");
  cmd->add_option("--who", a->ack.who, "Who acknowledges it")->required();
  cmd->add_option("--expires", a->ack.expires,
                  "YYYY-MM-DD, at most 180 days ahead: from this date on the key fails again (not "
                  "with --label)");
  cmd->add_option("--baselines-dir", a->baselines_dir, "Directory of baselines (acks.json there)")
      ->capture_default_str();
  cmd->add_option("--label", a->label,
                  "false-alarm|real|expected: label a failure of a recorded run (the run's FAIL, "
                  "a KEY of it, or --finding ID --node N) in the results store");
  cmd->add_option("--run", a->run_id, "With --label: the recorded run's id");
  cmd->add_option("--store", a->store,
                  "With --label: sqlite:PATH, postgresql://HOST/DB or a libpq conninfo (default: "
                  "$FABRICGATE_STORE, else sqlite:results/fabricgate.sqlite)");
  cmd->callback([a, &exit_code] { exit_code = run_ack(*a); });
}

}  // namespace fabricgate::cli
