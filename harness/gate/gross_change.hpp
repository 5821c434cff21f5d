#pragma once
// The gross-change limit (harness/gate/README.md "Two questions"): how far below the fleet centre
// any runner of the fleet has been, per key, in launches whose software was the baseline's. A
// fresh runner whose setup changed (a new NCCL, OMPI_MCA_btl=tcp) and that has no level of its
// own cannot tell the change from the runner on a key outside the fleet band; but a key further
// from the fleet than any runner of the fleet has been, by the file's margin, is not a runner's
// difference: it is REGRESSION, not RUNNER-DIFFERS.
//
// File `baselines/<platform>/gross-change.json` (schema fabricgate.gross-change/1), made by
// tools/gross_change_limits.py from A/A sessions known to be quiet and unchanged:
//   {"schema": "fabricgate.gross-change/1", "platform": "cpu-amd-epyc-c2", "factor": 0.2,
//    "derived_from": "results/... (what, how many launches, hosts)",
//    "keys": {"<key>": {"slowest_ratio": 0.43, "launches": 53, "hosts": 2}, ...}}
// slowest_ratio: the lowest performance ratio to the fleet centre of the key in those launches
// (< 1 slower). A key's limit is slowest_ratio x factor: with factor 0.2 a key must be 5x slower
// than the slowest A/A launch of the fleet before its change is blamed without a paired check.
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace fabricgate::gate {

inline constexpr const char* kGrossChangeSchema = "fabricgate.gross-change/1";

struct GrossChangeKey {
  double slowest_ratio = 0;  // (0, 1]: the fleet's slowest A/A launch of the key, to its centre
  long long launches = 0;    // A/A launches the ratio comes from
  long long hosts = 0;       // their hosts
};

struct GrossChangeLimits {
  std::string source;  // the file, for messages
  std::string platform;
  double factor = 0;  // (0, 1): the margin below slowest_ratio
  std::string derived_from;
  std::map<std::string, GrossChangeKey> keys;

  // The lowest ratio to the fleet centre a runner may show on `key` before a changed setup is
  // blamed for it; nullopt for a key the file does not know.
  std::optional<double> limit_for(const std::string& key) const;
};

// Throws InputError (file, field, expectation) for anything but a well-formed file.
GrossChangeLimits parse_gross_change_limits(const nlohmann::json& doc, const std::string& origin);
GrossChangeLimits load_gross_change_limits(const std::filesystem::path& path);

// The limits for `platform` next to the baseline file `baseline_file` (its directory's
// gross-change.json; for a per-platform file `<dir>/<platform>.json`, `<dir>/<platform>/
// gross-change.json`), when there is one and it is for that platform; nullopt otherwise. A file
// that exists but is malformed throws InputError: a broken limit file is never silently ignored.
std::optional<GrossChangeLimits> find_gross_change_limits(
    const std::filesystem::path& baseline_file, const std::string& platform);

}  // namespace fabricgate::gate
