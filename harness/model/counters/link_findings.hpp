#pragma once
// Findings that need no baseline, from one launch's counters (docs/COUNTERS.md "Thresholds").
// RDMA, after NVIDIA NVSentinel's NIC health rules (which follow the IBTA error counters):
//   - fatal: any increment of link_downed, excessive_buffer_overrun_errors,
//     local_link_integrity_errors or rnr_nak_retry_err; symbol_error faster than 120 per hour
//     (the 10^-12 bit-error-rate limit); a port that left ACTIVE or a device that vanished;
//   - degradation (a warning): symbol_error faster than 10 per second (also fatal by the rate
//     above, said in its text), link_error_recovery faster than 5 per minute, local_ack_timeout_err
//     and EFA's retrans_timeout_events, unresponsive_remote_events, impaired_remote_conn_events.
// Rates are per launch: delta / the launch's wall time. A 12 s launch with one symbol error is
// 300 per hour, over the limit: on a healthy link the count stays at zero for days.
#include <string>
#include <vector>

#include "harness/model/counters/counter_record.hpp"

namespace fabricgate::counters {

inline constexpr double kSymbolErrorsPerHourLimit = 120;  // 10^-12 BER (NVSentinel)
inline constexpr double kSymbolErrorsPerSecondDegraded = 10;
inline constexpr double kLinkRecoveriesPerMinuteDegraded = 5;

struct LinkFinding {
  bool fatal = false;
  std::string device;  // "mlx5_0"
  unsigned port = 0;
  std::string counter;  // the counter (or "state", "device") that decided
  std::string text;     // one line with the numbers
};

std::vector<LinkFinding> link_findings(const RunnerCounters& counters);

// Clock throttling of each GPU during the launch, one line per throttled GPU:
// "GPU 0 (GPU-…): HW thermal slowdown, SW power cap; power-capped 2.1 s, thermal-limited 0.4 s of
// the 12.0 s launch". Thermal, power and hardware slowdown only: idle, application-clock and
// sync-boost reasons do not slow a measurement by themselves.
std::vector<std::string> throttle_notes(const RunnerCounters& counters);

}  // namespace fabricgate::counters
