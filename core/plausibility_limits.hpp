#pragma once
// Ceilings the record readers apply to every number they load.
#include <cstdint>

namespace fabricgate {

// Values no real fabric produces; a file containing them is corrupt, not fast (or slow).
struct PlausibilityLimits {
  double max_rate_GBps = 1e5;            // 100 TB/s per rank pair: far above any NVLink/IB spec
  double max_time_us = 1e10;             // ~2.8 hours for one operation
  std::uint64_t max_bytes = 1ULL << 50;  // 1 PiB message
  int max_ranks = 1 << 20;
};

}  // namespace fabricgate
