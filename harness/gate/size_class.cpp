#include "harness/gate/size_class.hpp"

namespace fabricgate::gate {

const SizeClass& size_class_for(const TolerancePolicy& policy, std::uint64_t bytes) {
  for (const SizeClass& c : policy.size_classes) {
    if (!c.below_bytes || bytes < *c.below_bytes) return c;
  }
  return policy.size_classes.back();  // parse_baseline guarantees the last class is unbounded
}

}  // namespace fabricgate::gate
