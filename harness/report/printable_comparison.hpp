#pragma once
// Renderers show strings that came from input files (keys, run messages, host names, scenario
// names, NCCL log lines). Before any text renderer sees a Comparison, every such string is made
// one printable, bounded line here, so no renderer can forget one field.
#include "harness/verdict/comparison.hpp"

namespace fabricgate::report {

// A copy of `c` whose every string went through printable() (text_escape.hpp).
verdict::Comparison printable_copy(const verdict::Comparison& c);

}  // namespace fabricgate::report
