#pragma once
// What the runner was doing during one launch (run.json "runner_counters", docs/COUNTERS.md): the
// change of every hardware and host counter read around the launch, per GPU, RDMA port and host,
// and the compute processes found on the launch's GPUs that were not the launch's own. Plain data:
// written by the launch (launch_counters.hpp), read back by the run record, judged by pure
// functions (link_findings.hpp, foreign_load.hpp). No vendor header anywhere.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fabricgate::counters {

// A counter that could not be read, and why ("permission denied", "NVML not found: ...").
struct Unread {
  std::string what;
  std::string reason;
};

// One counter's change over the launch. `note` is empty for a plain increase; otherwise it says
// how the delta was obtained (wrapped, saturated, went back), see counter_delta.hpp.
struct CounterDelta {
  std::string name;
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint64_t delta = 0;
  std::string note;
};

// A reading that is a level, not a count (clock, temperature, PCIe width): start and end.
struct Gauge {
  std::string name;
  std::optional<double> start;
  std::optional<double> end;
};

// One device over the launch: a GPU, an RDMA port, or the launching host.
struct DeviceCounters {
  std::string kind;       // "gpu" | "rdma" | "host"
  std::string device;     // "GPU 0", "mlx5_0", the host name
  unsigned port = 0;      // RDMA port number (0 otherwise)
  std::string identity;   // GPU UUID; RDMA driver / link layer; "" when unknown
  bool vanished = false;  // read at the start, gone at the end (its counters are absent)
  std::vector<CounterDelta> counters;
  std::vector<Gauge> gauges;
  // Conditions seen at the start, during or at the end: GPU clock-event reasons
  // ("hw_thermal_slowdown"), XID events ("xid 79"); at most one entry per name.
  std::vector<std::string> events;
  std::vector<Unread> unread;

  const CounterDelta* counter(const std::string& name) const;
  const Gauge* gauge(const std::string& name) const;
  bool has_event(const std::string& name) const;
};

// A compute process on one of the launch's GPUs that was not one of its ranks.
struct ForeignProcess {
  unsigned pid = 0;
  std::string name;  // /proc/PID/comm; "" when unreadable (another PID namespace)
  unsigned gpu_index = 0;
  std::string gpu_uuid;
  std::uint64_t used_memory_bytes = 0;
  std::optional<double> sm_percent;  // NVML process utilization over the launch, where given
  std::string seen;                  // "start", "during", "end", or several joined by '+'
};

struct RunnerCounters {
  bool present = false;            // false: the run predates counters (nothing was read)
  double wall_s = 0;               // the launch's wall time between the two snapshots
  double snapshot_ms = 0;          // wall time of the start and end snapshots, measured
  bool processes_checked = false;  // the GPUs' process lists were read (NVML answered)
  std::vector<DeviceCounters> devices;
  std::vector<ForeignProcess> foreign_processes;
  std::vector<Unread> unread;  // whole sources not read: "nvml", "rdma", "psi"
};

}  // namespace fabricgate::counters
