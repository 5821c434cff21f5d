// `fabricgate import nccl-tests|nvbandwidth FILE... --out RUNDIR --platform P`: reads the output
// of tools clusters already run and writes a run directory that compare, baseline, report,
// history and publish accept (docs/IMPORT.md). Every file is read and checked before anything is
// written; the run directory appears whole or not at all.
// The run is recorded in the results store (--store), as `run` records its runs.
// Exit: 0 written, 2 bad input (file, line or field named; nothing written), 3 write failure or
// the store failed (the run directory stays).
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/errors.hpp"
#include "core/json_file.hpp"
#include "core/text_escape.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/store_hook.hpp"
#include "harness/fingerprint/platform_key.hpp"
#include "harness/import/imported_nccl_run.hpp"
#include "harness/import/imported_nvbandwidth_run.hpp"
#include "harness/import/nccl_tests_json.hpp"
#include "harness/import/nccl_tests_text.hpp"
#include "harness/import/nvbandwidth_json.hpp"
#include "harness/import/source_text.hpp"
#include "harness/launch/run_assembly.hpp"
#include "harness/model/run_record.hpp"
#include "harness/model/secret_redaction.hpp"
#include "harness/store/results_store.hpp"

namespace fabricgate::cli {

namespace {

struct ImportArgs {
  std::vector<std::string> files;
  std::string out;
  std::string platform;
  long long buffer_mib = 0;  // nvbandwidth -b; its JSON does not record it
  std::string store;
  std::string fingerprint;  // --fingerprint FILE: what the hardware is (docs/ROOFLINE.md)
};

// The files name no fabricgate platform key, and this machine's fingerprint says nothing about
// the machine that produced them (a cluster's output imported on a laptop), so the key is asked
// for.
import::ImportContext context(const ImportArgs& a){if (a.platform.empty()){throw InputError(
    "--platform P is required: the imported files do not name a fabricgate platform key, and "
    "this machine's fingerprint would describe the importing machine, not the one that ran "
    "the tool");
}  // namespace
fingerprint::validate_platform_key(a.platform, "command line", "--platform");
if (a.out.empty())
  throw InputError("--out RUNDIR is required (a new directory, e.g. results/<platform>/<run-id>)");
import::ImportContext ctx;
ctx.platform = a.platform;
ctx.now_iso = launch::utc_now_iso8601();
ctx.now_compact = launch::utc_now_compact();
ctx.fabricgate_version = FABRICGATE_VERSION;
return ctx;
}  // namespace fabricgate::cli

// The results root --out lies in (<root>/<platform>/<run-id>), where the default store lives.
std::filesystem::path results_root_of_out(const std::string& out) {
  RunRecord where;
  where.directory = out;
  return results_root_of(where);
}

std::vector<import::SourceFile> read_all(const ImportArgs& a) {
  std::vector<import::SourceFile> files;
  for (const std::string& path : a.files) files.push_back({path, import::read_source_file(path)});
  return files;
}

// The machine that ran the tool, as `fabricgate fingerprint` recorded it there: the roofline
// judges the imported figures against its links. Read before anything is written.
nlohmann::json fingerprint_of(const ImportArgs& a) {
  if (a.fingerprint.empty()) return nullptr;
  nlohmann::json fp = load_json_file(a.fingerprint, "fabricgate.fingerprint/1");
  if (!fp.is_object() || !fp.contains("gpus"))
    throw InputError(a.fingerprint, "/gpus",
                     "a fingerprint with a GPU section (fabricgate fingerprint --out FILE on the "
                     "machine that ran the tool)");
  // The file was written elsewhere, perhaps by hand or an older tool: what `fingerprint` would
  // never record (secret-named variables, token-shaped values, nccl.conf secrets) is redacted
  // before it is copied into run.json (issue 52).
  if (fp.contains("environment") && fp["environment"].is_object() &&
      fp["environment"].contains("variables") && fp["environment"]["variables"].is_object()) {
    for (auto& [name, value] : fp["environment"]["variables"].items()) {
      if (value.is_string()) value = recordable_value(name, value.get<std::string>());
    }
  }
  if (fp.contains("nccl") && fp["nccl"].is_object() && fp["nccl"].contains("config_files") &&
      fp["nccl"]["config_files"].is_array()) {
    for (auto& f : fp["nccl"]["config_files"]) {
      if (f.is_object() && f.contains("contents") && f["contents"].is_string())
        f["contents"] = recordable_config_text(f["contents"].get<std::string>());
    }
  }
  return fp;
}

// Recorded like `run` records (without verdicts: an import gates nothing; `compare` adds them),
// so that history, change points, DRIFT and the dashboard see imported runs too. A store that
// fails leaves the written run directory and exits 3.
int finish(const ImportArgs& a, const store::StoreLocation& where, import::ImportResult result) {
  if (const nlohmann::json fp = fingerprint_of(a); !fp.is_null()) result.run["fingerprint"] = fp;
  import::write_imported_run(a.out, result.run);
  for (const std::string& m : result.messages)
    std::cerr << report::console_text("fabricgate: import: " + m) << "\n";
  std::cout << "imported " << result.run["benchmarks"].size() << " keys from " << a.files.size()
            << " file(s) -> " << a.out << " (run " << result.run["run_id"].get<std::string>()
            << ")\n";
  if (where.kind == store::StoreKind::none) return 0;
  try {
    auto s = store::open_store(where);
    s->record(store::stored_run_from(load_run(a.out), nullptr));
    std::cout << "recorded in " << s->display() << "\n";
    return 0;
  } catch (const store::StoreError& e) {
    std::cerr << report::console_text(
                     "fabricgate: infrastructure failure: " + std::string(e.what()) +
                     "\nfabricgate: the run was NOT recorded in the store; it is kept in " + a.out +
                     " (record it later: fabricgate store import " + a.out + " --store " +
                     where.display + ")")
              << "\n";
    return static_cast<int>(ExitCode::infra_failure);
  }
}

int run_nccl_tests_import(const ImportArgs& a) {
  const import::ImportContext ctx = context(a);
  const store::StoreLocation where =
      store::resolve_store_location(a.store, results_root_of_out(a.out));
  const std::vector<import::SourceFile> files = read_all(a);
  std::vector<import::NcclTestsOutput> launches;
  for (const import::SourceFile& f : files) {
    launches.push_back(import::looks_like_json(f.text)
                           ? import::parse_nccl_tests_json(f.text, f.path)
                           : import::parse_nccl_tests_text(f.text, f.path));
  }
  return finish(a, where, import::build_nccl_tests_run(launches, files, ctx));
}

int run_nvbandwidth_import(const ImportArgs& a) {
  const import::ImportContext ctx = context(a);
  if (a.buffer_mib <= 0) {
    throw InputError(
        "--buffer-size MIB is required: nvbandwidth's JSON does not record its buffer size (-b, "
        "default 512 MiB), and the size is part of every key");
  }
  const store::StoreLocation where =
      store::resolve_store_location(a.store, results_root_of_out(a.out));
  const std::vector<import::SourceFile> files = read_all(a);
  std::vector<import::NvbandwidthOutput> launches;
  for (const import::SourceFile& f : files)
    launches.push_back(import::parse_nvbandwidth_json(f.text, f.path));
  const auto bytes = static_cast<std::uint64_t>(a.buffer_mib) << 20;
  return finish(a, where, import::build_nvbandwidth_run(launches, files, bytes, ctx));
}

void add_common_options(CLI::App* cmd, ImportArgs& args, const char* files_help) {
  cmd->add_option("files", args.files, files_help)->required()->type_name("FILE...");
  cmd->add_option("--out", args.out,
                  "New run directory to write (must not exist), e.g. results/<platform>/<run-id>")
      ->type_name("RUNDIR");
  cmd->add_option("--platform", args.platform,
                  "Platform key of the machine that produced the files (required: the files do not "
                  "say it, and "
                  "this machine's fingerprint would be the wrong one)")
      ->type_name("P");
  cmd->add_option("--store", args.store,
                  "Results store the imported run is recorded in (without verdicts; `compare` "
                  "adds them): sqlite:PATH, postgresql://HOST/DB, a libpq conninfo or none "
                  "(default: $FABRICGATE_STORE, else sqlite:<results root of RUNDIR>/"
                  "fabricgate.sqlite)");
  cmd->add_option("--fingerprint", args.fingerprint,
                  "Fingerprint JSON of the machine that ran the tool (fabricgate fingerprint "
                  "--out FILE there): the roofline then judges the figures against its links")
      ->type_name("FILE");
}

}  // namespace

void add_import_command(CLI::App& app, int& exit_code) {
  auto* cmd =
      app.add_subcommand("import",
                         "Read other tools' output (nccl-tests tables or -J JSON, nvbandwidth -j "
                         "JSON) into a run directory that compare, "
                         "baseline create, report, history and publish accept (docs/IMPORT.md)");
  cmd->footer(
      "Example:\n"
      "  fabricgate import nccl-tests all_reduce.txt --out results/h200-x2/imported-1 --platform "
      "h200-x2");
  cmd->require_subcommand(1);

  auto nccl = std::make_shared<ImportArgs>();
  auto* nccl_cmd =
      cmd->add_subcommand("nccl-tests",
                          "nccl-tests output (2.13+ text table, or the JSON of -J): one file = one "
                          "launch, each size and placement a "
                          "key coll/nccl/<op>/<dtype>[/<redop>]/bytes:N/ranks:n[/gpp:g]/{oop|ip} "
                          "with one figure; #wrong > 0 is "
                          "WRONG-RESULTS; one rank is refused (P01); -g g > 1 is the in-process "
                          "mode (gpp:g, P02); \"Avg bus "
                          "bandwidth\" is never used (P03). Exit 0 written, 2 bad input (file and "
                          "line named, nothing written)");
  nccl_cmd->footer(
      "Example:\n"
      "  fabricgate import nccl-tests all_reduce.txt all_gather.txt --out "
      "results/h200-x2/imported-1 --platform h200-x2");
  add_common_options(nccl_cmd, *nccl, "nccl-tests output files (text or JSON, detected per file)");
  nccl_cmd->callback([nccl, &exit_code] { exit_code = run_nccl_tests_import(*nccl); });

  auto nvb = std::make_shared<ImportArgs>();
  auto* nvb_cmd = cmd->add_subcommand(
      "nvbandwidth",
      "nvbandwidth JSON (-j): copy-engine and SM testcases become the p2p/hostcopy keys of "
      "fabricgate's p2p suite "
      "per GPU (pair), e.g. host_to_device_memcpy_ce -> hostcopy/cuda/h2d/pinned/gpu:G/bytes:N, "
      "device_to_device_memcpy_write_ce -> p2p/ce/write/uni/src:R/dst:C/bytes:N; other testcases "
      "are listed as "
      "not imported. Exit 0 written, 2 bad input (file and field named, nothing written)");
  nvb_cmd->footer(
      "Example:\n"
      "  fabricgate import nvbandwidth nvbandwidth.json --buffer-size 512 --out "
      "results/h200-x2/nvb-1 --platform h200-x2");
  add_common_options(nvb_cmd, *nvb, "nvbandwidth -j output files");
  nvb_cmd
      ->add_option("--buffer-size", nvb->buffer_mib,
                   "nvbandwidth's -b in MiB (required: its JSON does not record it; nvbandwidth's "
                   "default is 512)")
      ->type_name("MIB")
      ->check(CLI::Range(1LL, 1LL << 24));
  nvb_cmd->callback([nvb, &exit_code] { exit_code = run_nvbandwidth_import(*nvb); });
}

}  // namespace fabricgate::cli
