#pragma once
// From two readings of a counter to its change over a launch. Counters misbehave at their limits
// in two ways, and each source says which one its counters follow (docs/COUNTERS.md):
//   - saturating: the InfiniBand PortCounters in /sys/class/infiniband/*/ports/*/counters stop at
//     their all-ones value (IBTA PortCounters; 4-bit local_link_integrity_errors, 8-bit
//     link_downed, 16-bit symbol_error, ...). An end value at the limit is a lower bound.
//   - wrapping: hw_counters (mlx5 Q counters are 32 bits wide) and NVML's 32-bit counters count on
//     from 0 after 2^bits - 1. An end below the start is taken as one wrap.
// Either way an end below the start that cannot be a wrap (a saturating or 64-bit counter) is a
// reset (driver reload, `perfquery -R`): the delta counts from zero and the note says so.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/model/counters/counter_record.hpp"

namespace fabricgate::counters {

enum class Overflow { saturates, wraps };

struct RawCounter {
  std::uint64_t value = 0;
  Overflow overflow = Overflow::wraps;
  unsigned bits = 64;  // width in bits, 1..64
};

CounterDelta counter_delta(const std::string& name, const RawCounter& start, const RawCounter& end);

// One device as read at one instant.
struct DeviceSample {
  std::string kind;  // "gpu" | "rdma" | "host"
  std::string device;
  unsigned port = 0;
  std::string identity;
  std::map<std::string, RawCounter> counters;
  std::map<std::string, double> gauges;
  std::vector<std::string> events;  // conditions true at this instant (clock-event reasons)
  std::vector<Unread> unread;
};

// The devices of both snapshots, matched by (kind, device, port): counters read at both ends get
// a delta; a device only at the start is `vanished`; one only at the end is listed with its
// gauges and events (it appeared during the launch) but no counters; a counter missing at one
// end is Unread with the reason.
std::vector<DeviceCounters> device_deltas(const std::vector<DeviceSample>& start,
                                          const std::vector<DeviceSample>& end);

}  // namespace fabricgate::counters
