#pragma once
// What compare, report and run share: gate a loaded run against its baseline, and write one
// rendering of the result to stdout (colours only on a terminal) or atomically to a file.
#include <optional>
#include <string>

#include "harness/gate/compare.hpp"
#include "harness/model/baseline.hpp"
#include "harness/model/run_record.hpp"
#include "harness/report/render.hpp"

namespace fabricgate::cli {

struct GatedRun {
  RunRecord run;
  std::optional<Baseline> baseline;
  gate::Comparison comparison;
};

// The gate's options with the roofline policy looked for in ./policies, then in the source tree's
// policies/ (docs/ROOFLINE.md).
gate::CompareOptions compare_options(bool force, bool force_platform);

GatedRun gate_run_files(const std::string& run_path, const std::string& baseline_file,
                        const std::string& baselines_dir, const gate::CompareOptions& options);

// `out` empty: stdout. Colours for the console format on a terminal unless NO_COLOR is set.
// `verbose`: the console lists every key with its notes instead of summarising passes and skips.
void emit(const gate::Comparison& comparison, report::ReportFormat format, const std::string& out,
          bool verbose = false);

}  // namespace fabricgate::cli
