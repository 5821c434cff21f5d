#pragma once
// A baseline belongs to one platform key (baselines/<platform>.json). Gating a run of another
// platform, merging its runs into the baseline, or writing it into a file named for another
// platform mixes two machines' numbers, so all three are refused (exit 2) unless the user says
// --force-platform.
#include <filesystem>
#include <string>
#include <vector>

#include "harness/model/baseline.hpp"
#include "harness/model/run_record.hpp"

namespace fabricgate::gate {

// Throws InputError naming the run, its platform and the baseline's, unless `forced`.
void require_run_platform(const RunRecord& run, const Baseline& baseline, bool forced);

// Every run must have the baseline's platform (baseline update).
void require_runs_platform(const std::vector<RunRecord>& runs, const Baseline& baseline,
                           bool forced);

// Writing a baseline of `platform` to `out` is refused unless `forced` when `out` is the baseline
// of another platform: the file it replaces says so (`replaced`, may be null), or it lies in a
// directory called "baselines" under another platform's name (<other>.json,
// <other>--<scenario>.json). Other names (reviewer copies such as /tmp/candidate.json) say nothing
// about a platform.
void require_file_named_for(const std::filesystem::path& out, const std::string& platform,
                            const Baseline* replaced, bool forced);

}  // namespace fabricgate::gate
