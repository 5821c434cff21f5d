#pragma once
// Which size class of the tolerance policy a message size falls in (its static floor and whether
// it is judged on latency or bandwidth, P15). Below both the launch band and the tolerance, which
// each need it.
#include <cstdint>

#include "harness/model/baseline.hpp"

namespace fabricgate::gate {

const SizeClass& size_class_for(const TolerancePolicy& policy, std::uint64_t bytes);

}  // namespace fabricgate::gate
