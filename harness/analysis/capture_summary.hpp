#pragma once
// What NCCL chose, read back from its NCCL_DEBUG=INFO logs (one text per process). This is the
// "log" capture path of the run record (docs/DESIGN.md "capture"); the profiler plugin is the
// per-collective path. Recognised messages: version, "Using network", per-connection transports
// (P2P/SHM/NET/COLLNET), GDRDMA, rings/trees connected, NVLS availability, channel counts,
// "NCCL_* set by environment to", TUNING per-collective choices, communicator init (rank,
// cudaDev, busId), the loaded profiler plugin, the OFI provider.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "harness/analysis/log_facts.hpp"

namespace fabricgate::capture {

struct RankInfo {
  int rank = -1;
  int nranks = -1;
  int cuda_dev = -1;
  int nvml_dev = -1;
  std::string bus_id;  // NCCL's formatting: "0000:1b:00.0"; empty when not logged
  std::string host;
  long long pid = -1;
  bool init_complete = false;
};

// One distinct per-collective choice from the TUNING lines and how often it was printed.
struct TuningChoice {
  std::string func;
  std::uint64_t bytes = 0;
  std::string algo;
  std::string proto;
  std::string kernel;
  int channels = -1;
  std::uint64_t count = 0;
};

// A run whose every operation fails warns once per operation: keep the first few distinct reasons.
inline constexpr std::size_t kMaxDistinctWarnings = 20;

struct CaptureSummary {
  std::string nccl_version;                  // "2.28.3"; the first one seen
  std::set<std::string> nccl_versions_full;  // more than one means mixed installs across ranks
  std::set<std::string> networks;            // "IB", "Socket", "AWS Libfabric"
  std::string net_provider;                  // aws-ofi-nccl's libfabric provider ("efa", "cxi")
  std::set<std::string> transports;          // kinds: "P2P/CUMEM", "NET/IB"
  std::map<std::string, std::uint64_t> transport_connections;  // variant -> connection lines
  bool gdrdma = false;
  std::map<std::string, std::string> env_overrides;
  std::optional<bool> nvls_available;       // true when any device reported it available
  std::vector<ChannelCountsFact> channels;  // distinct, in order seen
  bool rings_connected = false;
  bool trees_connected = false;
  bool nvls_tree_connected = false;
  bool collnet_connected = false;
  std::optional<int> ring_pxn;
  std::optional<int> ring_gdr;
  std::string profiler_plugin;       // "fabricgate (v5)" when NCCL loaded a profiler
  std::vector<RankInfo> ranks;       // sorted by (nranks desc, rank)
  std::vector<TuningChoice> tuning;  // sorted by (func, bytes, algo, proto, channels)
  std::map<std::string, std::uint64_t> collective_calls;  // COLL subsystem "opCount" lines
  std::map<std::string, std::uint64_t>
      warnings;  // WARN text -> lines (at most kMaxDistinctWarnings)
  std::uint64_t lines_recognised = 0;

  // "IB", or several joined with '+' ("IB+Socket") when communicators disagreed; "" if none.
  std::string network() const;
  bool has_transport_prefix(std::string_view prefix) const;
};

// Parses the logs of all processes of one run. Never throws on malformed text.
CaptureSummary parse_nccl_logs(const std::vector<std::string>& texts);

// Incremental form (one line at a time), for callers that stream files.
class CaptureAccumulator {
 public:
  void add_text(std::string_view text);
  void add(const ParsedLine& line);
  CaptureSummary finish() const;

 private:
  using TuningKey =
      std::tuple<std::string, std::uint64_t, std::string, std::string, std::string, int>;
  CaptureSummary summary_;
  std::map<TuningKey, std::uint64_t> tuning_;
};

// NCCL's busId integer ("%lx" in the logs) as NCCL prints PCI ids: "0000:1b:00.0".
std::string format_bus_id(std::uint64_t bus_id);

}  // namespace fabricgate::capture
