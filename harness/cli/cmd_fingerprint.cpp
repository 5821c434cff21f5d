// `fabricgate fingerprint [--json] [--platform KEY] [--out FILE]`: prints the platform
// fingerprint (docs/DESIGN.md, "The fingerprint document"). Missing GPUs, RDMA devices or vendor
// libraries are facts, not errors: the command exits 0 and the sections say why they are empty.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "core/json_file.hpp"
#include "core/text_escape.hpp"
#include "harness/cli/commands.hpp"
#include "harness/fingerprint/fingerprint.hpp"
#include "harness/fingerprint/platform_key.hpp"
#include "harness/model/output_paths.hpp"

namespace fabricgate::cli {

namespace {

struct FingerprintArgs {
  bool as_json = false;
  std::string platform;
  std::string out;
};

void run_fingerprint(const FingerprintArgs& args) {
  fingerprint::CollectOptions options;
  if (!args.platform.empty()) {
    // Checked before the (slow) probing so a typo fails at once, naming the flag.
    fingerprint::validate_platform_key(args.platform, "command line", "--platform");
    options.platform_override = args.platform;
  }
  if (!args.out.empty()) require_writable_file(args.out, "--out");
  const json doc = fingerprint::collect(options);
  if (!args.out.empty()) write_json_atomically(args.out, doc);
  if (args.as_json) {
    std::cout << doc.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
  } else {
    std::cout << report::console_text(fingerprint::summarize(doc));
    if (!args.out.empty()) std::cout << "written   " << args.out << "\n";
  }
}

}  // namespace

void add_fingerprint_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "fingerprint",
      "Print the platform fingerprint: host, GPUs (NVML), NCCL/MPI versions, RDMA devices, "
      "fabric environment, and the platform key baselines are stored under");
  cmd->footer(
      "Example:\n"
      "  fabricgate fingerprint --json --out fingerprint.json");
  auto args = std::make_shared<FingerprintArgs>();
  cmd->add_flag("--json", args->as_json, "Print the full JSON document (fabricgate.fingerprint/1)");
  cmd->add_option("--platform", args->platform,
                  "Use KEY as the platform key instead of the derived one (letters, digits, "
                  "'.', '_', '-')")
      ->type_name("KEY");
  cmd->add_option("--out", args->out, "Also write the JSON document to FILE (atomically)")
      ->type_name("FILE");
  cmd->callback([args, &exit_code] {
    run_fingerprint(*args);
    exit_code = 0;
  });
}

}  // namespace fabricgate::cli
