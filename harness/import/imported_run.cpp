#include "harness/import/imported_run.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "core/errors.hpp"
#include "core/in_flight_paths.hpp"
#include "harness/model/run_record.hpp"

namespace fabricgate::import {

void check_import_keys(std::size_t keys, const std::string& file, const std::string& pointer) {
  if (keys <= kMaxImportedKeys) return;
  throw InputError(file, pointer,
                   "at most " + std::to_string(kMaxImportedKeys) +
                       " keys per import, but the input would make " + std::to_string(keys) +
                       " (import fewer testcases or launches at a time); no run was built");
}

namespace fs = std::filesystem;

std::uint64_t content_hash(const std::vector<SourceFile>& files) {
  std::uint64_t h = 1469598103934665603ULL;
  for (const SourceFile& f : files) {
    for (const char c : f.text) {
      h ^= static_cast<unsigned char>(c);
      h *= 1099511628211ULL;
    }
    h ^= 0xff;  // file boundary: "ab"+"c" differs from "a"+"bc"
    h *= 1099511628211ULL;
  }
  return h;
}

std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

json imported_run_skeleton(const ImportContext& ctx, const std::string& tool,
                           const std::string& tool_version, const std::vector<SourceFile>& files) {
  const std::string hash = fmt::format("{:08x}", content_hash(files) >> 32);
  std::string names;
  for (const SourceFile& f : files) names += (names.empty() ? "" : ",") + base_name(f.path);
  return json{
      {"schema", kRunSchema},
      {"run_id", ctx.now_compact + "-import-" + tool + "-" + hash},
      {"suite", tool},
      {"scenario", {{"name", "default"}, {"env", json::object()}}},
      {"platform", ctx.platform},
      {"complete", true},
      {"incomplete_reason", ""},
      {"started_at", ctx.now_iso},
      {"finished_at", ctx.now_iso},
      {"metadata",
       {{"fabricgate_version", ctx.fabricgate_version},
        {"imported_from", tool},
        {"source_tool_version", tool_version},
        {"source_files", names}}},
      {"benchmarks", json::array()},
  };
}

namespace {

// parse_run on the document about to be written. Its errors name the run.json that does not exist
// yet; the person can only fix the input, so a record's error is told at the input file and line
// the record came from (params.source_file / source_line, set by every importer).
void refuse_unloadable(const json& run, const std::string& shown) {
  try {
    parse_run(run, shown);
  } catch (const InputError& e) {
    const std::string& field = e.field();
    const std::string prefix = "/benchmarks/";
    if (field.rfind(prefix, 0) != 0) throw;
    const std::size_t end = field.find('/', prefix.size());
    const std::string index = field.substr(prefix.size(), end - prefix.size());
    if (index.empty() || index.find_first_not_of("0123456789") != std::string::npos) throw;
    const std::size_t i = std::stoul(index);
    const json& benchmarks = run.at("benchmarks");
    if (i >= benchmarks.size()) throw;
    const json params = benchmarks[i].value("params", json::object());
    const std::string file = params.value("source_file", std::string());
    if (file.empty()) throw;
    const std::string where =
        file + (params.contains("source_line") && params["source_line"].is_number_integer()
                    ? " line " + std::to_string(params["source_line"].get<long long>())
                    : std::string());
    std::string why = e.what();
    if (const std::size_t at = why.find(": field "); at != std::string::npos)
      why = why.substr(at + 2);
    throw InputError(where, "",
                     "this row becomes benchmark " + benchmarks[i].value("key", std::string()) +
                         ", which fabricgate cannot load (" + why + "); nothing was written");
  }
}

}  // namespace

void write_imported_run(const fs::path& out_arg, const json& run) {
  // "results/p/run/" names the same directory as "results/p/run": its parent is results/p.
  fs::path out = out_arg.lexically_normal();
  if (out.filename().empty()) out = out.parent_path();
  if (out.empty() || out.filename() == "." || out.filename() == "..") {
    throw InputError(out_arg.string(), "", "a new directory to create (--out)");
  }
  const std::string shown = (out / "run.json").string();
  // The loader is what every consumer uses; a document it refuses must never be written.
  refuse_unloadable(run, shown);
  std::error_code ec;
  if (fs::exists(out, ec) || fs::is_symlink(out, ec)) {
    throw InputError(
        out.string(), "",
        "already exists (an import never replaces a run directory; choose a new --out)");
  }
  const fs::path parent = out.has_parent_path() ? out.parent_path() : fs::path(".");
  fs::create_directories(parent, ec);
  if (ec) throw InputError(parent.string(), "", "cannot create the directory: " + ec.message());
  // The temporary directory is named after the run directory only (no pid): one that a killed
  // import left is removed by the next import of the same name, and SIGTERM removes its own.
  const fs::path temp = parent / ("." + out.filename().string() + ".importing");
  fs::remove_all(temp, ec);
  try {
    const InFlightPath dir_in_flight(temp, true);
    const InFlightPath file_in_flight(temp / "run.json", false);
    fs::create_directory(temp);
    write_json_atomically(temp / "run.json", run);
    fs::rename(temp, out);
  } catch (const std::exception& e) {
    fs::remove_all(temp, ec);
    throw InfraError("writing " + out.string() + ": " + e.what());
  }
}

}  // namespace fabricgate::import
