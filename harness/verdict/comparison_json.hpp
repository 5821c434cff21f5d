#pragma once
// The comparison as JSON (schema fabricgate.comparison/1) for `compare --format json` and for
// tools downstream (dashboards, the publish step).
#include <nlohmann/json.hpp>

#include "harness/verdict/comparison.hpp"

namespace fabricgate::verdict {

inline constexpr const char* kComparisonSchema = "fabricgate.comparison/1";

nlohmann::json comparison_to_json(const Comparison& comparison);

}  // namespace fabricgate::verdict
