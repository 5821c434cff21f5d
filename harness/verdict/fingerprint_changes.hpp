#pragma once
// What changed in the fingerprint between the two sides of a comparison (baseline vs run in
// compare/report, side A vs side B in ab): every field of fingerprint_detail.hpp that differs,
// sorted by field, so that a regression next to "nccl 2.28.3 -> 2.28.9" or "env/NCCL_IB_HCA
// changed" explains itself. When a side holds no detail (a baseline written before it was kept,
// a run without a fingerprint) nothing is invented: the note says why nothing is listed.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/model/fingerprint_detail.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::verdict {

struct FingerprintChanges {
  std::vector<Change> changes;  // what = field; "" before/after: absent on that side
  std::string note;             // "" when both sides were compared
};

inline constexpr const char* kBaselineWithoutDetail =
    "baseline has no fingerprint detail; re-create it to see what changed";

// `before_missing` / `after_missing` name the side in the note when its detail is empty.
FingerprintChanges fingerprint_changes(const FingerprintDetail& before,
                                       const FingerprintDetail& after,
                                       const std::string& before_missing,
                                       const std::string& after_missing);

// [{"field", "before", "after"}, ...]: the `fingerprint_diff` of compare's and ab's JSON.
nlohmann::json fingerprint_diff_to_json(const std::vector<Change>& changes);

}  // namespace fabricgate::verdict
