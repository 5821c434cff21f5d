#include "harness/gate/platform_guard.hpp"

#include "core/errors.hpp"
#include "harness/model/baseline_location.hpp"

namespace fabricgate::gate {

namespace {
const char* const kHow = " (a different platform; use --force-platform to go ahead anyway)";
}

void require_run_platform(const RunRecord& run, const Baseline& baseline, bool forced) {
  if (forced || run.platform == baseline.platform) return;
  throw InputError(run.source, "/platform",
                   "the platform of baseline " + baseline.source + ", \"" + baseline.platform +
                       "\", found \"" + run.platform + "\"" + kHow);
}

void require_runs_platform(const std::vector<RunRecord>& runs, const Baseline& baseline,
                           bool forced) {
  for (const RunRecord& run : runs) require_run_platform(run, baseline, forced);
}

void require_file_named_for(const std::filesystem::path& out, const std::string& platform,
                            const Baseline* replaced, bool forced) {
  if (forced) return;
  if (replaced != nullptr && replaced->platform != platform) {
    throw InputError(out.string(), "/platform",
                     "a baseline of \"" + platform + "\" like the runs, but the file holds \"" +
                         replaced->platform + "\"" + kHow);
  }
  if (out.extension() != ".json") return;
  std::string named;
  std::string expected;
  if (out.parent_path().filename() == kBaselinesDir) {  // baselines/<platform>[--<scenario>].json
    const std::string stem = out.stem().string();
    named = stem.substr(0, stem.find("--"));
    expected = "baselines/" + platform + ".json";
  } else if (out.parent_path().parent_path().filename() == kBaselinesDir) {
    named = out.parent_path().filename().string();  // baselines/<platform>/<suite>.json
    expected = "baselines/" + platform + "/" + out.filename().string();
  } else {
    return;
  }
  if (named == platform) return;
  throw InputError(out.string(), "",
                   "a file named for the runs' platform (" + expected +
                       "), found the name of platform \"" + named + "\"" + kHow);
}

}  // namespace fabricgate::gate
