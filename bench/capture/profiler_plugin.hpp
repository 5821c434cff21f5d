#pragma once
// NCCL profiler plugin compiled into fabricgate-bench. With NCCL_PROFILER_PLUGIN=STATIC_PLUGIN
// NCCL (2.23+, src/plugin/plugin_open.cc) calls dlopen(NULL) — the executable itself — and then
// dlsym()s "ncclProfiler_v6", "_v5", "_v4", ... in that order. The executable must therefore
// export these symbols (CMake ENABLE_EXPORTS / -rdynamic). The plugin asks only for collective
// events (ncclProfileColl) and records each one's func, datatype, count, algorithm, protocol,
// channels and warps into the process-wide ChoiceCollector under the current label.
//
// Use from the bench (rank-local; each process collects its own communicators' events):
//   bool ours = capture::enable_static_profiler_if_unset();   // before the first NCCL call
//   ... ncclCommInitRank ...
//   capture::profiler().set_label(key);  run benchmark;
//   auto choice = capture::profiler().take(key);
//   capture::profiler().active()  -> whether NCCL initialised the plugin ("profiler" path)
#include "bench/capture/choice_collector.hpp"
#include "bench/capture/profiler_abi.hpp"

namespace fabricgate::capture {

// The one collector NCCL's C entry points feed. A process-wide object is unavoidable: NCCL finds
// the plugin by symbol name and passes no pointer of ours until init.
ChoiceCollector& profiler();

// Sets NCCL_PROFILER_PLUGIN=STATIC_PLUGIN when the variable is unset or empty, so that NCCL uses
// the plugin compiled into this executable. Returns true when it set it, false when the user had
// chosen a profiler of their own (or "none") — their choice wins. Call before any NCCL call and
// before other threads start (setenv is not thread-safe).
bool enable_static_profiler_if_unset();

}  // namespace fabricgate::capture

// The symbols NCCL looks up (one table per ABI version NCCL may ask for). Default visibility
// even if the build hides symbols by default; the executable still needs ENABLE_EXPORTS.
extern "C" {
__attribute__((
    visibility("default"))) extern const fabricgate::capture::nccl_abi::ProfilerV4 ncclProfiler_v4;
__attribute__((
    visibility("default"))) extern const fabricgate::capture::nccl_abi::ProfilerV5 ncclProfiler_v5;
__attribute__((
    visibility("default"))) extern const fabricgate::capture::nccl_abi::ProfilerV6 ncclProfiler_v6;
}
