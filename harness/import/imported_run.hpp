#pragma once
// The parts every import shares: the run.json skeleton (schema fabricgate.run/1, docs/DESIGN.md)
// with where the figures came from, and writing the run directory all at once. An import never
// fingerprints the machine it runs on (the file may come from another one), so the platform is
// the caller's (--platform) and run.json carries no fingerprint: the gate then says the identity
// was not checked instead of comparing a laptop's identity with a cluster's baseline.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/json_file.hpp"

namespace fabricgate::import {

// The most keys one import may make. A key's record (figures, samples, notes) costs kilobytes, so
// this bounds the memory of the run being built; the largest real outputs (nccl-tests over every
// size and type, nvbandwidth on a 72-GPU NVLink domain for one testcase: 5,112 pairs) stay well
// below it. Checked from the parsed figures, before any record is built.
inline constexpr std::size_t kMaxImportedKeys = 20000;

// Throws InputError naming `file` and `pointer` when `keys` exceeds kMaxImportedKeys.
void check_import_keys(std::size_t keys, const std::string& file, const std::string& pointer);

struct ImportContext {
  std::string platform;     // --platform (a safe name)
  std::string now_iso;      // "2026-12-01T09:00:00Z"
  std::string now_compact;  // "20261201T090000Z"
  std::string fabricgate_version;
};

struct SourceFile {
  std::string path;  // as given on the command line
  std::string text;  // its bytes
};

// 64-bit FNV-1a over the files' bytes: the run id's suffix, so two imports in the same second
// differ and re-importing the same files names the same launch.
std::uint64_t content_hash(const std::vector<SourceFile>& files);

// schema, run_id (<now>-import-<tool>-<hash>), suite = tool, scenario default, platform, complete,
// times, metadata (tool, version, files), empty benchmarks.
json imported_run_skeleton(const ImportContext& ctx, const std::string& tool,
                           const std::string& tool_version, const std::vector<SourceFile>& files);

// Checks `run` with the run loader (what compare/report/baseline will read), then writes
// OUT/run.json into a temporary sibling directory renamed to OUT: nothing appears at OUT unless
// all of it is there. OUT must not exist (an import never replaces a run).
void write_imported_run(const std::filesystem::path& out, const json& run);

// The part of a path after its last '/', for params (full paths leak the importing machine's
// layout).
std::string base_name(const std::string& path);

}  // namespace fabricgate::import
