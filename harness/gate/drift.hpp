#pragma once
// DRIFT: a key whose recent runs sit on a new, worse level, although each run passed the gate.
// A fixed baseline and a per-run tolerance miss a slow slide (each run 0.5 % worse) and a step
// smaller than the tolerance; the store's history of launch medians does not.
//
// Rule: find the change points of the key's newest runs (change_points.hpp). The level before
// the first change point is the reference; when the level after the last change point is worse
// than the reference by more than `threshold` and has lasted at least `min_runs` runs, the key
// drifted. It began at the first change point from which every later level is that much worse
// (for a slide: where it first crossed the threshold; for a step: the step).
// The threshold is never below the series' own noise: a level is the median of m launches, and a
// shift of such a level by launch-to-launch noise alone reaches t * sigma * sqrt(1/m + 1/r)
// (r runs before the change). sigma is the robust spread of the run-to-run differences of the
// log values (a step or a slide barely moves it), t Student's at the gate's per-key level
// (band_alpha, family-wise over the launch's keys). Without it a 2 % threshold on a key that
// moves 10 % from launch to launch fails A/A histories (measured on the 2-core CPU box).
#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "harness/model/baseline.hpp"
#include "harness/model/run_record.hpp"
#include "harness/stats/change_points.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::gate {

struct DriftPolicy {
  double threshold = 0.02;   // worse by more than 2 % ...
  int min_runs = 3;          // ... for at least 3 runs
  std::size_t window = 20;   // newest runs examined (as `history --last`)
  double band_alpha = 0.01;  // per-key level of the noise threshold (the baseline's band_alpha)
  double between_sd = 0;     // the key's between-session SD (log scale) from its baseline
};

struct DriftFinding {
  std::size_t began_index = 0;    // index into the series of the first run on the worse level
  std::size_t runs_on_level = 0;  // runs since the last change point
  double reference_level = 0;     // median before the first change point
  double current_level = 0;       // median after the last change point
  double performance_ratio = 1;   // current vs reference, > 1 better (time inverted)
  double p_value = 1;             // of the change point where it began
  double threshold = 0;           // what the level had to lose: max(policy threshold, noise)
};

// t * sqrt(sigma^2 (1/m + 1/r) + 2 between_sd^2) as a relative loss (see above): two levels of
// different sessions differ by the between-session term as well, so a new session on the same
// host is not drift. 0 with fewer than 3 values.
double drift_noise_threshold(std::span<const double> series, std::size_t on_level,
                             std::size_t before, double band_alpha, double between_sd = 0);

// The drift settings of a gate policy: threshold, minimum runs and the per-key level.
DriftPolicy drift_policy_from(const TolerancePolicy& policy);

// nullopt when the series did not drift.
std::optional<DriftFinding> detect_drift(std::span<const double> series, bool higher_is_better,
                                         const DriftPolicy& policy,
                                         const stats::ChangePointOptions& options);

// One key's history as the drift check needs it: run ids and values of the judged metric,
// oldest first, the run being compared last.
struct KeySeries {
  std::vector<std::string> run_ids;
  std::vector<double> values;
  double between_sd = 0;  // the key's between-session SD from the baseline (0: unknown)
};

// DRIFT's input: the results store's recent runs of the platform, oldest first, read by the
// caller (the store sits above the gate). A change of machine is not drift: only runs of the
// judged run's host make a key's series when both host ids are known.
struct HistoryMedian {
  std::string key;
  double time_us = 0;
  double algbw_GBps = 0;
  std::optional<double> busbw_GBps;
  std::string verdict;  // the gate's verdict when the run was recorded ("" when not compared)
};
struct HistoryRun {
  std::string run_id;
  std::string host_id;  // "" when the store does not know it
  std::vector<HistoryMedian> medians;
  std::string session_id = {};  // one `fabricgate run` invocation ("" for legacy runs)
  std::string suite = {};
  std::string scenario = {};
};
struct RunHistory {
  std::string source;  // the store, for messages
  std::vector<HistoryRun> runs;
  // The host's oldest runs, oldest first: where its first accepted level comes from (the change
  // question's anchor, host_history.hpp). May overlap `runs`.
  std::vector<HistoryRun> earliest = {};
  // Stored runs left out because this machine's host key does not verify their seal (recorded
  // by `store import` or `compare`, on another machine, before schema v5, or forged).
  std::size_t unsealed_runs = 0;
  bool host_key_here = true;  // false: this machine has no host key (no `run` recorded here)
};

// Says how many stored runs were left out of the host's level for want of a seal this machine
// verifies (RunHistory::unsealed_runs), and why that is.
std::string unsealed_runs_warning(const RunHistory& history);

// Each key's series of its judged metric from `history` (same host only, when known), then this
// run's value; applies DRIFT and says so in a warning. Returns the number of keys marked.
std::size_t apply_history_drift(verdict::Comparison& comparison, const RunRecord& run,
                                const RunHistory& history, const DriftPolicy& policy,
                                const Baseline* baseline);

// Turns keys that passed (PASS, AMBIGUOUS, NEW) into DRIFT where their series drifted, with a
// reason naming the run where it began, and sets the exit code to 1 when any did. `series_of`
// returns nullptr for a key without history. Returns the number of keys marked.
using SeriesLookup = std::function<const KeySeries*(const verdict::KeyComparison&)>;
std::size_t apply_drift(verdict::Comparison& comparison, const DriftPolicy& policy,
                        const stats::ChangePointOptions& options, const SeriesLookup& series_of);

// Failing verdicts first (the enum's order), keys in their previous order within a verdict.
void sort_by_urgency(std::vector<verdict::KeyComparison>& keys);

// The verdicts apply_drift may replace.
bool drift_applies_to(verdict::Verdict v);

// The metric the drift check follows for a compared key: the gate's judged metric.
verdict::Metric drift_metric(const verdict::KeyComparison& key);

// Marks one key; the reason is one line with the levels, the change and the run where it began.
void mark_drift(verdict::KeyComparison& key, const DriftFinding& finding, const KeySeries& series,
                const DriftPolicy& policy);

}  // namespace fabricgate::gate
