#include "harness/gate/fingerprint_guard.hpp"

#include <set>

#include "core/errors.hpp"
#include "harness/model/baseline_location.hpp"
#include "harness/verdict/fingerprint_changes.hpp"

namespace fabricgate::gate {

namespace {
bool has_gpus(const nlohmann::json& identity) {
  auto it = identity.find("gpu_count");
  return it != identity.end() && it->is_number() && it->get<double>() > 0;
}

std::string shown(const nlohmann::json& v) {
  if (v.is_null()) return "(absent)";
  return v.is_string() ? v.get<std::string>() : v.dump();
}
}  // namespace

std::vector<verdict::Change> identity_differences(const nlohmann::json& before,
                                                  const nlohmann::json& after) {
  std::vector<verdict::Change> out;
  std::set<std::string> fields;
  for (const auto& [k, v] : before.items()) fields.insert(k);
  for (const auto& [k, v] : after.items()) fields.insert(k);
  // A GPU box is identified by its GPUs and their wiring; its CPU only matters without GPUs.
  const bool gpu_machine = has_gpus(before) && has_gpus(after);
  for (const std::string& f : fields) {
    if (f == "cpu_model" && gpu_machine) continue;
    const nlohmann::json b = before.contains(f) ? before.at(f) : nlohmann::json();
    const nlohmann::json a = after.contains(f) ? after.at(f) : nlohmann::json();
    if (b != a) out.push_back({f, shown(b), shown(a)});
  }
  return out;
}

std::map<std::string, std::string> run_versions(const RunRecord& run) {
  std::map<std::string, std::string> v = run.fingerprint.versions;
  if (!run.capture.nccl_version.empty() && v["nccl"].empty()) v["nccl"] = run.capture.nccl_version;
  for (auto it = v.begin(); it != v.end();) it = it->second.empty() ? v.erase(it) : std::next(it);
  return v;
}

std::vector<verdict::VersionChange> version_differences(
    const std::map<std::string, std::string>& before,
    const std::map<std::string, std::string>& after) {
  std::vector<verdict::VersionChange> out;
  std::set<std::string> names;
  for (const auto& [k, v] : before) names.insert(k);
  for (const auto& [k, v] : after) names.insert(k);
  for (const std::string& n : names) {
    const auto b = before.find(n);
    const auto a = after.find(n);
    const std::string bv = b == before.end() ? "(absent)" : b->second;
    const std::string av = a == after.end() ? "(absent)" : a->second;
    if (bv != av) out.push_back({n, bv, av});
  }
  return out;
}

void require_same_gpus_per_process(const RunRecord& run, const Baseline& baseline) {
  const bool run_multi = run.launch.gpus_per_process > 1;
  const bool base_multi = baseline.gpus_per_process > 1;
  if (run_multi != base_multi) {
    throw InputError(run.source, "/launch/gpus_per_process",
                     "the same GPUs-per-process mode as baseline " + baseline.source + " (" +
                         std::to_string(baseline.gpus_per_process) + "), found " +
                         std::to_string(run.launch.gpus_per_process) +
                         ": P02 — one process driving several GPUs serialises launches, so the "
                         "two are never compared");
  }
}

std::vector<std::string> software_changes(const std::vector<verdict::VersionChange>& versions,
                                          const std::vector<verdict::Change>& fingerprint) {
  std::vector<std::string> out;
  const auto shown = [](const std::string& v) { return v.empty() ? std::string("none") : v; };
  for (const verdict::VersionChange& v : versions)
    out.push_back(v.component + " " + shown(v.before) + " -> " + shown(v.after));
  for (const verdict::Change& c : fingerprint) {
    const bool fabric_setting = c.what.starts_with("env/NCCL_") || c.what.starts_with("env/FI_") ||
                                c.what.starts_with("env/UCX_") || c.what.starts_with("env/OMPI_") ||
                                c.what.starts_with("nccl.conf/");
    if (fabric_setting) out.push_back(c.what + " " + shown(c.before) + " -> " + shown(c.after));
  }
  return out;
}

std::vector<std::string> software_changes_since(const Baseline& baseline, const RunRecord& run) {
  return software_changes(
      version_differences(baseline.provenance.versions, run_versions(run)),
      verdict::fingerprint_changes(baseline.fingerprint_detail, run.fingerprint.detail,
                                   verdict::kBaselineWithoutDetail, "run has no fingerprint detail")
          .changes);
}

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
