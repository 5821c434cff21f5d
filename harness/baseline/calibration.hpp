#pragma once
// `fabricgate calibrate`: what the gate can and cannot see on this machine, from N A/A launches
// (nothing changed between them). Per key: the launch-to-launch CV, how many of the launches the
// baseline would fail (without and with a confirmation launch: launch i is confirmed by launch
// i+1, the last by the first), and the minimum detectable effect: the band these N launches
// give one new launch at the policy's band_alpha, floored by the size class (a change larger
// than that fails at least half the time), and the change detected with 80 % power.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/model/baseline.hpp"
#include "harness/model/run_record.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::baseline {

struct CalibrationRow {
  std::string key;
  std::string size_class;
  std::uint64_t bytes = 0;
  verdict::Metric metric = verdict::Metric::time_us;
  std::size_t launches = 0;
  double launch_cv = 0;      // standard deviation / mean of the launch medians
  double repetition_cv = 0;  // median over launches of the repetitions' robust CV
  double band = 0;           // prediction half-width from these launches (before the floor)
  double mde = 0;            // max(floor, band): the smallest loss that fails (50 % power)
  double mde80 = 0;          // the loss failed with 80 % power
  bool noisy = false;        // band > policy max_band
  // Against the baseline (when given): launches whose key fails, alone and confirmed.
  std::size_t failing = 0;
  std::size_t failing_confirmed = 0;
  double baseline_band = 0;  // the baseline's own tolerance for the key (0: not in it)
};

struct SizeClassSummary {
  std::string name;
  std::size_t keys = 0;
  std::size_t noisy = 0;
  double median_mde = 0;  // over the class's gateable keys
  double max_mde = 0;
};

struct CalibrationTable {
  std::size_t launches = 0;
  bool has_baseline = false;
  std::size_t launches_failing = 0;  // any key failing, no confirmation
  std::size_t launches_failing_confirmed =
      0;                                  // some key failing in the launch and its confirmation
  std::vector<CalibrationRow> rows;       // by key
  std::vector<SizeClassSummary> classes;  // policy order
};

// Needs >= 2 complete launches of one platform. `baseline` may be null (then no failure counts,
// and the policy is `policy`); otherwise its policy is used.
// How calibrate judges one A/A launch: the one judge (judge_run.hpp) with no confirmation launch
// and no store, asking both questions (--gate both): an A/A launch should fail neither, so every
// failing key counts, whichever question fails it.
verdict::Comparison judge_aa_launch(const RunRecord& launch, const Baseline& baseline);

CalibrationTable calibrate(const std::vector<RunRecord>& launches, const Baseline* baseline,
                           const TolerancePolicy& policy);

std::string render_calibration(const CalibrationTable& t);  // the table a user reads

// Stores each row's band in the baseline (entry.band) for keys it has; returns how many.
std::size_t write_calibrated_bands(Baseline& baseline, const CalibrationTable& t,
                                   const std::string& now);

}  // namespace fabricgate::baseline
