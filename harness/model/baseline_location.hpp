#pragma once
// Where a run's baseline lives. One runner carries several jobs (a PR suite, a nightly, an NCCL
// upgrade gate), so a baseline is keyed by platform and suite: <dir>/<platform>/<suite>.json.
// The older one-per-platform file <dir>/<platform>.json is still read when the per-suite file does
// not exist, and the choice is said out loud (describe_baseline_location), so that nobody gates a
// quick suite against a nightly's baseline without knowing.
#include <filesystem>
#include <string>

namespace fabricgate {

struct BaselineLocation {
  std::filesystem::path path;        // the file to read, or where a new one belongs
  bool exists = false;               // path names an existing file
  bool platform_fallback = false;    // path is the older <dir>/<platform>.json
  std::filesystem::path suite_path;  // <dir>/<platform>/<suite>.json ("" without a usable suite)
};

// <dir>/<platform>/<suite>.json, or <dir>/<platform>/<suite>--<variant>.json for a non-default
// scenario. Empty when `suite` cannot be a file name (empty, a path, shell syntax).
std::filesystem::path suite_baseline_path(const std::filesystem::path& dir,
                                          const std::string& platform, const std::string& suite,
                                          const std::string& variant = "");

// <dir>/<platform>.json, or <dir>/<platform>--<variant>.json: the layout before suites were keys.
std::filesystem::path platform_baseline_path(const std::filesystem::path& dir,
                                             const std::string& platform,
                                             const std::string& variant = "");

// The per-suite file if it exists, else the per-platform file if that exists, else the per-suite
// path (where `baseline create` puts a new one; the per-platform path when the suite is unusable).
// `platform` must already have passed require_safe_name.
BaselineLocation locate_baseline(const std::filesystem::path& dir, const std::string& platform,
                                 const std::string& suite, const std::string& variant = "");

// The variant a run's scenario is gated under: "" for the default scenario (or none recorded),
// else the scenario with ':' as '-' ("algo:Ring" -> "algo-Ring"). Non-default scenarios (controls)
// are expected to differ from the platform's normal baseline, so they are gated only against a
// baseline of their own: <dir>/<platform>/<suite>--<variant>.json (or <platform>--<variant>.json).
std::string scenario_variant(const std::string& scenario);

// Throws InputError when `dir` exists and is not a directory: a file given as --baselines-dir is a
// typo for --baseline, and reading it as "no baseline yet" passed every run ungated (exit 0).
void require_baselines_dir(const std::filesystem::path& dir);

// Where baselines are read from and written to when no --baselines-dir is given.
inline constexpr const char* kBaselinesDir = "baselines";

// What chooses a run's baseline: its platform, suite and scenario.
struct BaselineFor {
  std::string platform;
  std::string suite;
  std::string scenario;  // "" or "default": the suite's own baseline; else its variant
};

// The one baseline choice, for reading and writing alike (compare, report, run, nodes, ab's and
// compare --against's tolerance policy, baseline create / grow / status, the "create one" hint):
// `explicit_file` when given (`exists` says whether it does); else, in `dir` ("" = kBaselinesDir,
// refused with InputError when it exists and is not a directory), locate_baseline of the suite
// under the scenario's variant. A writer writes to `suite_path` (or `path` where the suite names
// no key); a reader reads `path` when it `exists`.
BaselineLocation choose_baseline(const std::string& explicit_file, const std::filesystem::path& dir,
                                 const BaselineFor& what);

// Where a new baseline's or an A/B's tolerance policy comes from: the scenario's own baseline,
// else the suite's (a scenario with no baseline of its own takes the policy reviewed for the
// suite). Refuses `dir` as choose_baseline does.
BaselineLocation choose_policy_baseline(const std::filesystem::path& dir, const BaselineFor& what);

// One line for the console: which file gates, and why that one ("" when the per-suite file is
// used or nothing exists; a fallback is always named).
std::string describe_baseline_location(const BaselineLocation& location);

}  // namespace fabricgate
