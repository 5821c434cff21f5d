#pragma once
// A reviewable summary of what a baseline change does: keys added/removed, judged medians that
// moved (with %), NCCL choice or transport expectations that changed, policy/identity changes.
#include <string>
#include <vector>

#include "harness/model/baseline.hpp"

namespace fabricgate::baseline {

struct MedianChange {
  std::string key;
  std::string metric;
  double before = 0;
  double after = 0;
  double change = 0;  // (after - before) / before
};

// A key whose gate band moved: why is in the numbers (launches in the window, their noise).
struct BandChange {
  std::string key;
  double before = 0;  // prediction half-width (relative), before the floor
  double after = 0;
  std::size_t launches_before = 0;
  std::size_t launches_after = 0;
  double floor = 0;         // the size class's (or key's) static floor, after
  bool calibrated = false;  // after: from `fabricgate calibrate`
  bool noisy_after = false;
};

struct BaselineDiff {
  std::size_t total_keys = 0;
  std::vector<std::string> added;
  std::vector<std::string> removed;
  std::vector<MedianChange> medians;       // judged metric of keys present on both sides
  std::vector<std::string> route_changes;  // "key: algo {Ring} -> {Tree}"
  std::vector<BandChange> bands;           // keys present on both sides whose band moved
  std::vector<std::string> other;          // policy, identity, platform
};

// `before` null = a new baseline.
BaselineDiff diff_baselines(const Baseline* before, const Baseline& after);

// "new baseline: N keys" or the list of changes; `max_lines` caps each section (0 = no cap).
std::string render_baseline_diff(const BaselineDiff& diff, std::size_t max_lines = 200);

}  // namespace fabricgate::baseline
