#pragma once
// A roofline finding as JSON, for the comparison document (fabricgate.comparison/1, key field
// "roofline") and anything else that stores it.
#include <nlohmann/json.hpp>

#include "harness/roofline/finding.hpp"

namespace fabricgate::roofline {

nlohmann::json to_json(const RooflineFinding& f);

}  // namespace fabricgate::roofline
