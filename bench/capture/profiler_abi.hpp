#pragma once
// Our own declaration of the NCCL profiler plugin ABI (versions 4, 5 and 6), derived from reading
// NCCL's plugin headers (src/include/plugin/profiler/profiler_v{4,5,6}.h at v2.27.3, v2.28.3,
// v2.29.2 and master) — written here from the layout, not copied. Only what fabricgate reads is
// named; the rest of each event union is reserved storage, and the static_asserts pin the sizes
// and offsets derived for LP64 (x86-64, aarch64) so a mismatch fails the build, not a run.
//
// NCCL (2.29+) looks for ncclProfiler_v6 first, then v5 (2.28), v4 (2.27), ... and uses the
// first symbol found, so exporting all three serves every version from 2.27 on.
#include <cstddef>
#include <cstdint>

namespace fabricgate::capture::nccl_abi {

// ncclResult_t values used by a plugin.
enum Result : int { kSuccess = 0, kInternalError = 3, kInvalidArgument = 4 };

// Event-type bits (ncclProfileGroup .. ncclProfileKernelLaunch, and v6's CE bits).
enum EventType : std::uint64_t {
  kEventGroup = 1u << 0,
  kEventColl = 1u << 1,
  kEventP2p = 1u << 2,
  kEventProxyOp = 1u << 3,
  kEventProxyStep = 1u << 4,
  kEventProxyCtrl = 1u << 5,
  kEventKernelCh = 1u << 6,
  kEventNetPlugin = 1u << 7,
  kEventGroupApi = 1u << 8,
  kEventCollApi = 1u << 9,
  kEventP2pApi = 1u << 10,
  kEventKernelLaunch = 1u << 11,
};

// ncclDebugLogger_t: (level, subsystem flags, file, line, printf format, ...).
using DebugLogger = void (*)(int level, unsigned long flags, const char* file, int line,
                             const char* fmt, ...);

struct EventStateArgs;  // never read by fabricgate

// The host collective event ("coll" member of the descriptor union). v5 and v6 append the
// parent group handle; v4 ends after proto.
struct CollEventV4 {
  std::uint64_t seq_number;
  const char* func;  // "AllReduce"
  const void* send_buff;
  void* recv_buff;
  std::size_t count;  // elements
  int root;
  const char* datatype;  // "ncclFloat32"
  std::uint8_t n_channels;
  std::uint8_t n_warps;
  const char* algo;   // "Ring"
  const char* proto;  // "LL"
};

struct CollEventV5 {
  std::uint64_t seq_number;
  const char* func;
  const void* send_buff;
  void* recv_buff;
  std::size_t count;
  int root;
  const char* datatype;
  std::uint8_t n_channels;
  std::uint8_t n_warps;
  const char* algo;
  const char* proto;
  void* parent_group;
};

// Largest union member in v4 is the coll event (80 bytes); in v5/v6 it is coll (and v6's CE
// collective), 88 bytes.
struct EventDescrV4 {
  std::uint8_t type;
  void* parent_obj;
  int rank;
  union {
    CollEventV4 coll;
    unsigned char reserved[80];
  } u;
};

struct EventDescrV5 {
  std::uint64_t type;
  void* parent_obj;
  int rank;
  union {
    CollEventV5 coll;
    unsigned char reserved[88];
  } u;
};

using EventDescrV6 = EventDescrV5;  // v6 adds CE members of the same 88-byte union size

static_assert(offsetof(CollEventV4, count) == 32);
static_assert(offsetof(CollEventV4, root) == 40);
static_assert(offsetof(CollEventV4, datatype) == 48);
static_assert(offsetof(CollEventV4, n_channels) == 56);
static_assert(offsetof(CollEventV4, n_warps) == 57);
static_assert(offsetof(CollEventV4, algo) == 64);
static_assert(offsetof(CollEventV4, proto) == 72);
static_assert(sizeof(CollEventV4) == 80);
static_assert(offsetof(CollEventV5, parent_group) == 80);
static_assert(sizeof(CollEventV5) == 88);
static_assert(offsetof(EventDescrV4, parent_obj) == 8);
static_assert(offsetof(EventDescrV4, rank) == 16);
static_assert(offsetof(EventDescrV4, u) == 24);
static_assert(sizeof(EventDescrV4) == 104);
static_assert(offsetof(EventDescrV5, parent_obj) == 8);
static_assert(offsetof(EventDescrV5, rank) == 16);
static_assert(offsetof(EventDescrV5, u) == 24);
static_assert(sizeof(EventDescrV5) == 112);

// The plugin table. v4's init takes (context, mask, commName, commHash, nNodes, nRanks, rank,
// logger); v5/v6 moved the communicator id to the second position.
struct ProfilerV4 {
  const char* name;
  Result (*init)(void** context, int* activation_mask, const char* comm_name,
                 std::uint64_t comm_hash, int n_nodes, int n_ranks, int rank, DebugLogger logger);
  Result (*start_event)(void* context, void** handle, EventDescrV4* descr);
  Result (*stop_event)(void* handle);
  Result (*record_event_state)(void* handle, int state, EventStateArgs* args);
  Result (*finalize)(void* context);
};

struct ProfilerV5 {
  const char* name;
  Result (*init)(void** context, std::uint64_t comm_id, int* activation_mask, const char* comm_name,
                 int n_nodes, int n_ranks, int rank, DebugLogger logger);
  Result (*start_event)(void* context, void** handle, EventDescrV5* descr);
  Result (*stop_event)(void* handle);
  Result (*record_event_state)(void* handle, int state, EventStateArgs* args);
  Result (*finalize)(void* context);
};

using ProfilerV6 = ProfilerV5;  // same table; the descriptor union grew (CE events)

static_assert(sizeof(ProfilerV4) == 6 * sizeof(void*));
static_assert(sizeof(ProfilerV5) == 6 * sizeof(void*));
static_assert(offsetof(ProfilerV5, finalize) == 5 * sizeof(void*));

}  // namespace fabricgate::capture::nccl_abi
