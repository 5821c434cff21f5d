#pragma once
// RDMA port counters from sysfs, read under a root directory (tests use recorded trees,
// tests/data/sysfs-*): for every /sys/class/infiniband/<dev>/ports/<n>/ the files of counters/
// (InfiniBand PortCounters: saturating, widths from the IBTA PortCounters attribute) and
// hw_counters/ (driver counters: mlx5's are 32-bit and wrap; EFA's are 64-bit), plus the port's
// state and rate as gauges; device-level hw_counters (EFA keeps its error counters there) as
// port 0. A file that cannot be read is an Unread with the reason (EACCES in a container,
// EINVAL for a counter the firmware lacks); no reading fails a run.
#include <filesystem>
#include <vector>

#include "harness/model/counters/counter_delta.hpp"

namespace fabricgate::counters {

struct RdmaSamples {
  std::vector<DeviceSample> ports;
  std::vector<Unread> unread;  // the whole source ("no RDMA driver loaded")
};

RdmaSamples read_rdma_samples(const std::filesystem::path& root);

// The IBTA width of a PortCounters file (4 for local_link_integrity_errors, 8 for link_downed,
// 16 for symbol_error, 32 for port_xmit_wait); 64 for the data counters the kernel fills from
// PortCountersExtended and for names it does not know.
unsigned port_counter_bits(const std::string& name);

}  // namespace fabricgate::counters
