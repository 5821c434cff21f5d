#pragma once
// One recognised NCCL_DEBUG=INFO line, as plain data. parse_nccl_log_line() turns a raw line into
// at most one fact; lines it does not know (most of them) give std::nullopt. Formats accepted are
// those of NCCL 2.18 .. 2.30 (see docs in capture_summary.hpp for the list of message shapes).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace fabricgate::capture {

// "host:pid:tid [cudaDev] NCCL INFO " in front of every INFO line (src/debug.cc); absent on the
// bare VERSION-level "NCCL version ..." line.
struct LinePrefix {
  std::string host;
  long long pid = -1;
  long long tid = -1;
  int cuda_dev = -1;
};

struct VersionFact {
  std::string version;  // "2.28.3"
  std::string full;     // "2.28.3+cuda13.0"
};

struct NetworkFact {  // "Using network IB" / "Using network AWS Libfabric"
  std::string name;
};

struct NetProviderFact {  // aws-ofi-nccl: "NET/OFI Selected Provider is efa (found 4 nics)"
  std::string provider;
};

// "Channel 02/1 : 0[0] -> 1[1] via P2P/CUMEM/read", "... [send] via NET/IB/0/GDRDMA", SHM, CollNet.
struct TransportFact {
  int channel = -1;
  int conn = -1;  // connection index; -1 when the format has none (SHM)
  int from_rank = -1;
  int to_rank = -1;       // -1 for CollNet lines (no peer)
  std::string direction;  // "send", "receive" or "" (P2P/SHM lines carry none)
  std::string kind;       // family used for gating: "P2P/CUMEM", "SHM", "NET/IB", "COLLNET/SHARP"
  std::string variant;    // kind plus flags: "P2P/CUMEM/read", "NET/IB/GDRDMA/Shared"
  int net_dev = -1;
  bool gdrdma = false;
  bool shared = false;
};

struct ConnectedFact {
  enum class What { rings, trees, nvls_tree, collnet };
  What what = What::rings;
  std::optional<int> ring_pxn;  // 2.26+: "Connected all rings, use ring PXN %d GDR %d"
  std::optional<int> ring_gdr;
};

struct NvlsFact {  // "NVLS multicast support is [not ]available on dev %d"
  bool available = false;
  int dev = -1;
};

struct ChannelCountsFact {  // "24 coll channels, 24 collnet channels, 0 nvls channels, 32 p2p ..."
  int coll = -1;
  int collnet = -1;  // absent before 2.20
  int nvls = -1;
  int p2p = -1;
  int p2p_per_peer = -1;
  bool operator==(const ChannelCountsFact&) const = default;
};

struct EnvOverrideFact {  // "NCCL_PROTO set by environment to LL"
  std::string name;
  std::string value;
};

// Per-collective choice printed by rank 0 under NCCL_DEBUG_SUBSYS=TUNING (2.20+).
struct TuningFact {
  std::string func;  // "AllReduce"; empty for 2.20-2.22 whose line names no function
  std::uint64_t bytes = 0;
  std::string algo;    // "Ring"; numeric ids of 2.20-2.23 are mapped to names
  std::string proto;   // "LL"
  std::string kernel;  // symmetric kernels (2.27+) name a kernel instead of algo/proto
  int channels = -1;   // from channel{Lo..Hi} or nchannels; -1 when the line has none
};

// "... comm 0x... rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x... - Init COMPLETE"
struct CommInitFact {
  int rank = -1;
  int nranks = -1;
  int cuda_dev = -1;
  int nvml_dev = -1;
  std::uint64_t bus_id = 0;
  bool has_bus_id = false;
  bool complete = false;  // COMPLETE vs START
};

struct ProfilerPluginFact {  // "PROFILER/Plugin: Loaded fabricgate (v5)"
  std::string name;
  int version = -1;
};

struct CollCallFact {  // NCCL_DEBUG_SUBSYS=COLL: "AllReduce: opCount 3 sendbuff ..."
  std::string func;
};

// "host:pid:tid [dev] file.cc:123 NCCL WARN <text>": why NCCL refused or failed something (an
// ncclInvalidUsage says no more than "invalid usage"; the WARN line names the reason).
struct WarningFact {
  std::string text;  // without the source location, at most kMaxWarningChars
};
inline constexpr std::size_t kMaxWarningChars = 300;

using LineFact =
    std::variant<VersionFact, NetworkFact, NetProviderFact, TransportFact, ConnectedFact, NvlsFact,
                 ChannelCountsFact, EnvOverrideFact, TuningFact, CommInitFact, ProfilerPluginFact,
                 CollCallFact, WarningFact>;

struct ParsedLine {
  std::optional<LinePrefix> prefix;
  LineFact fact;
};

// Never throws on malformed input (allocation failure aside); unknown lines give std::nullopt.
std::optional<ParsedLine> parse_nccl_log_line(std::string_view line);

// The message part alone (what follows "NCCL INFO "); used by parse_nccl_log_line.
std::optional<LineFact> parse_nccl_message(std::string_view message);

namespace detail {
std::optional<TransportFact> parse_transport_message(std::string_view message);
std::optional<TuningFact> parse_tuning_message(std::string_view message);
std::optional<ChannelCountsFact> parse_channel_counts(std::string_view message);
std::optional<CommInitFact> parse_comm_init(std::string_view message);
}  // namespace detail

}  // namespace fabricgate::capture
