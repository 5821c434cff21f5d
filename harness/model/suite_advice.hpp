#pragma once
// Advice about a suite that is valid but will measure less well than it could. Printed as
// warnings when the suite is launched; never a refusal.
#include <string>
#include <vector>

#include "core/suite.hpp"

namespace fabricgate {

// One sentence per problem, naming the suite and the entries concerned.
// - NCCL benchmarks beside p2p/devcopy entries: those fixtures launch fill, copy and check kernels
//   in the same process, and on H200 any kernel other than NCCL's puts all_gather/reduce_scatter
//   on per-process levels up to 8 % apart (docs/DESIGN.md, "The data check").
std::vector<std::string> suite_advice(const Suite& suite);

}  // namespace fabricgate
