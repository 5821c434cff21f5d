// The C entry points NCCL calls. They must never throw into NCCL, so each one catches everything
// and reports ncclInternalError instead.
//
// Cost (goal: <= 2 % on an 8 B all_reduce, ~7-10 us): init sets the activation mask to
// collective events only; NCCL then still starts group / API events (their masks include the
// collective bit) — those return a null handle at once, so NCCL never calls stop for them. A
// collective is recorded at start (algorithm, protocol and channels are final by then) under one
// uncontended mutex and without allocation once its values have been seen, and it also returns a
// null handle: no per-event state, no stop bookkeeping.
#include "bench/capture/profiler_plugin.hpp"

#include <cstdlib>
#include <cstring>

namespace fabricgate::capture {

ChoiceCollector& profiler() {
  static ChoiceCollector collector;
  return collector;
}

bool enable_static_profiler_if_unset() {
  const char* current = std::getenv("NCCL_PROFILER_PLUGIN");
  if (current != nullptr && current[0] != '\0') return false;
  return ::setenv("NCCL_PROFILER_PLUGIN", "STATIC_PLUGIN", 1) == 0;
}

}  // namespace fabricgate::capture

namespace {

namespace abi = fabricgate::capture::nccl_abi;
using fabricgate::capture::CollectiveChoice;
using fabricgate::capture::profiler;

abi::Result init_common(void** context, int* activation_mask, int version) noexcept {
  if (context == nullptr || activation_mask == nullptr) return abi::kInvalidArgument;
  try {
    *activation_mask = static_cast<int>(abi::kEventColl);
    // Any non-null context makes NCCL call finalize; the collector needs no per-comm state.
    *context = &profiler();
    profiler().note_init(version);
    return abi::kSuccess;
  } catch (...) {
    return abi::kInternalError;
  }
}

template <class Coll>
abi::Result record_coll(const Coll& coll) noexcept {
  try {
    CollectiveChoice c;
    c.func = coll.func;
    c.datatype = coll.datatype;
    c.algo = coll.algo;
    c.proto = coll.proto;
    c.count = coll.count;
    c.channels = coll.n_channels;
    c.warps = coll.n_warps;
    profiler().record(c);
    return abi::kSuccess;
  } catch (...) {
    return abi::kInternalError;
  }
}

abi::Result init_v4(void** context, int* mask, const char*, std::uint64_t, int, int, int,
                    abi::DebugLogger) {
  return init_common(context, mask, 4);
}
abi::Result init_v5(void** context, std::uint64_t, int* mask, const char*, int, int, int,
                    abi::DebugLogger) {
  return init_common(context, mask, 5);
}
abi::Result init_v6(void** context, std::uint64_t, int* mask, const char*, int, int, int,
                    abi::DebugLogger) {
  return init_common(context, mask, 6);
}

abi::Result start_v4(void*, void** handle, abi::EventDescrV4* descr) {
  if (handle != nullptr) *handle = nullptr;
  if (descr == nullptr || descr->type != abi::kEventColl) return abi::kSuccess;
  return record_coll(descr->u.coll);
}
abi::Result start_v5(void*, void** handle, abi::EventDescrV5* descr) {
  if (handle != nullptr) *handle = nullptr;
  if (descr == nullptr || descr->type != abi::kEventColl) return abi::kSuccess;
  return record_coll(descr->u.coll);
}

abi::Result stop_event(void*) { return abi::kSuccess; }
abi::Result record_event_state(void*, int, abi::EventStateArgs*) { return abi::kSuccess; }
abi::Result finalize(void* context) {
  if (context != nullptr) profiler().note_finalize();
  return abi::kSuccess;
}

}  // namespace

extern "C" {
__attribute__((used)) const abi::ProfilerV4 ncclProfiler_v4 = {
    "fabricgate", init_v4, start_v4, stop_event, record_event_state, finalize};
__attribute__((used)) const abi::ProfilerV5 ncclProfiler_v5 = {
    "fabricgate", init_v5, start_v5, stop_event, record_event_state, finalize};
__attribute__((used)) const abi::ProfilerV6 ncclProfiler_v6 = {
    "fabricgate", init_v6, start_v5, stop_event, record_event_state, finalize};
}
