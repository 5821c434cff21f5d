#pragma once
// What compare, report and run share: load a run (with the later launches that confirm it) and
// its baseline, hand them to the one judge (harness/gate/judge_run.hpp), and write one rendering
// of the result to stdout (colours only on a terminal) or atomically to a file; the HTML report
// with the run's history beside it (below).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "harness/gate/judge_run.hpp"
#include "harness/model/baseline.hpp"
#include "harness/model/baseline_location.hpp"
#include "harness/model/run_record.hpp"
#include "harness/report/render.hpp"
#include "harness/store/store_location.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::cli {

struct GatedRun {
  RunRecord run;
  std::optional<Baseline> baseline;
  verdict::Comparison comparison;
  bool store_failed = false;  // the store could not be read: judged without DRIFT (exit 3)
  std::string store_failure;  // why, printed after the verdict (report_history_failure)
};

// The launches a run directory kept as its confirmations: <run>/confirm, <run>/confirm-2.
std::vector<std::string> recorded_confirmations(const RunRecord& run);

// The baseline `run` is judged against: `baseline_file` when given, else the one under
// `baselines_dir` for its platform and suite (with a note on stderr when that is the older
// per-platform file); nullopt when there is none. A baseline whose policy lets no key gate where
// the default policy would gate some is refused (InputError naming the file): it could fail
// nothing. Launches too noisy for any policy are said in the headline instead.
std::optional<Baseline> baseline_for(const RunRecord& run, const std::string& baseline_file,
                                     const std::string& baselines_dir);

// The same choice without that check (calibrate and status read such files to repair them).
std::optional<Baseline> located_baseline(const RunRecord& run, const std::string& baseline_file,
                                         const std::string& baselines_dir);

// The one judge as every command calls it: the baseline's tolerance policy (the defaults without
// a baseline) sets the DRIFT window of the history read from `store` (`access`: read commands
// never create or migrate it). `store_failure` says why when the store cannot be read: the run is
// then judged without DRIFT, the caller prints it after the verdict and a pass becomes exit 3.
verdict::Comparison judge_with_history(const RunRecord& run,
                                       const std::optional<Baseline>& baseline,
                                       const gate::ConfirmationLauncher& confirmations,
                                       const store::StoreLocation& store, store::Access access,
                                       const gate::JudgeOptions& options,
                                       std::string& store_failure);

// Judges `runs[0]` with `runs[1..]` as its later launches of the same session (or, with one run,
// the confirmations it kept), against its baseline, with DRIFT from `store` (none: no DRIFT).
// A later launch of another platform or session, or one that started earlier, is refused (exit 2).
GatedRun judge_run_files(const std::vector<std::string>& runs, const std::string& baseline_file,
                         const std::string& baselines_dir, const gate::CompareOptions& options,
                         const std::string& store_flag, store::Access store_access);

// With --require-baseline and no baseline: says so on stderr with the command that makes one
// (gate::command_exit_code then gives exit 2).
void report_missing_required_baseline(const verdict::Comparison& c, const RunRecord& run,
                                      bool required);

// On stderr, when the baseline found is the older per-platform file: which file gates and why.
void note_baseline_location(const BaselineLocation& where);

// --gate's default on run, compare, report and publish: `change` (a PR check or an upgrade gate
// asks whether the change regressed; a nightly health job passes --gate fleet).
inline constexpr const char* kDefaultGate = "change";
// The --gate option's help text (one wording on every command).
inline constexpr const char* kGateHelp =
    "Which question the exit code answers: change (did the change make this runner slower than "
    "it was: against this host's own history, else the fleet; a key outside the fleet on a host "
    "without history is RUNNER-DIFFERS, exit 3, never a regression), fleet (is this runner like "
    "the fleet: HOST-OUTLIER and roofline floors fail) or both";

// --gate (see kDefaultGate below) is parsed by compare_options.
// The gate's options with the roofline policy looked for in ./policies, then in the source tree's
// policies/ (docs/ROOFLINE.md), and the question the exit code answers (--gate).
gate::CompareOptions compare_options(bool force, bool force_platform,
                                     const std::string& gate = kDefaultGate);

// `out` empty: stdout. Colours for the console format on a terminal unless NO_COLOR is set.
// `verbose`: the console lists every key with its notes instead of summarising passes and skips.
void emit(const verdict::Comparison& comparison, report::ReportFormat format,
          const std::string& out, bool verbose = false);

// What `report --format html` and `run --report html` share: the HTML report with the baseline's
// bands and the trend of the platform's last runs, written to stdout or atomically to a file.

struct HtmlHistoryOptions {
  bool enabled = true;
  std::string dir;  // results root or <root>/<platform>; "" = the directory the run lies in
  std::size_t last = 10;
};

// History warnings (corrupt or foreign run files) go to stderr. Throws InputError when an explicit
// history directory does not exist.
void write_html_report(const RunRecord& run, const verdict::Comparison& comparison,
                       const HtmlHistoryOptions& history, const std::string& out);

}  // namespace fabricgate::cli
