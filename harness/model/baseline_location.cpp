#include "harness/model/baseline_location.hpp"

#include "core/errors.hpp"
#include "core/json_file.hpp"

namespace fabricgate {

namespace fs = std::filesystem;

namespace {
std::string file_name(const std::string& stem, const std::string& variant) {
  return variant.empty() ? stem + ".json" : stem + "--" + variant + ".json";
}
}  // namespace

fs::path suite_baseline_path(const fs::path& dir, const std::string& platform,
                             const std::string& suite, const std::string& variant) {
  // A suite given as a path (suites/x.json, /tmp/x.json) names no key of its own.
  if (!is_safe_name(suite)) return {};
  return dir / platform / file_name(suite, variant);
}

fs::path platform_baseline_path(const fs::path& dir, const std::string& platform,
                                const std::string& variant) {
  return dir / file_name(platform, variant);
}

BaselineLocation locate_baseline(const fs::path& dir, const std::string& platform,
                                 const std::string& suite, const std::string& variant) {
  BaselineLocation where;
  where.suite_path = suite_baseline_path(dir, platform, suite, variant);
  std::error_code ec;
  if (!where.suite_path.empty() && fs::is_regular_file(where.suite_path, ec)) {
    where.path = where.suite_path;
    where.exists = true;
    return where;
  }
  const fs::path older = platform_baseline_path(dir, platform, variant);
  if (fs::is_regular_file(older, ec)) {
    where.path = older;
    where.exists = true;
    where.platform_fallback = true;
    return where;
  }
  where.path = where.suite_path.empty() ? older : where.suite_path;
  return where;
}

std::string describe_baseline_location(const BaselineLocation& location) {
  if (!location.exists || !location.platform_fallback) return "";
  if (location.suite_path.empty()) {
    return "baseline " + location.path.string() +
           " (the per-platform file: the run's suite is a path, not a name to key a baseline by)";
  }
  return "baseline " + location.path.string() +
         " (the per-platform file: " + location.suite_path.string() +
         " does not exist; `baseline create` writes per-suite files there)";
}

std::string scenario_variant(const std::string& scenario) {
  if (scenario.empty() || scenario == "default") return "";
  std::string slug = scenario;
  for (char& c : slug) c = c == ':' ? '-' : c;
  return slug;
}

void require_baselines_dir(const fs::path& dir) {
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    throw InputError(dir.string(), "",
                     "a directory of baselines (--baselines-dir); to judge against one file, give "
                     "--baseline FILE");
}

BaselineLocation choose_baseline(const std::string& explicit_file, const fs::path& dir,
                                 const BaselineFor& what) {
  if (!explicit_file.empty()) {
    BaselineLocation given;
    given.path = explicit_file;
    std::error_code ec;
    given.exists = fs::exists(given.path, ec);
    given.suite_path = given.path;
    return given;
  }
  const fs::path in = dir.empty() ? fs::path(kBaselinesDir) : dir;
  require_baselines_dir(in);
  return locate_baseline(in, what.platform, what.suite, scenario_variant(what.scenario));
}

BaselineLocation choose_policy_baseline(const fs::path& dir, const BaselineFor& what) {
  const BaselineLocation own = choose_baseline("", dir, what);
  return own.exists ? own : choose_baseline("", dir, {what.platform, what.suite, ""});
}

}  // namespace fabricgate
