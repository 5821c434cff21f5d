#pragma once
// ab.json (schema fabricgate.ab/2): the A/B comparison as written next to the launches'
// run directories, and read by people and scripts (docs/AB-GATE.md describes the fields).
#include <nlohmann/json.hpp>

#include "harness/ab/ab_compare.hpp"

namespace fabricgate::ab {

nlohmann::json ab_to_json(const AbComparison& c);

}  // namespace fabricgate::ab
