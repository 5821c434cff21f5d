#pragma once
// What fabricgate declares of NVML's C API itself (layouts and entry points from the public
// nvml.h: a stable C ABI), shared by the fingerprint's GPU query (nvml_gpu_query.cpp) and the
// runner counters' reader (harness/counters/nvml_counter_source.cpp). NVML is dlopen()ed
// (dynamic_library.hpp), never linked: the CLI runs on CPU-only machines, and reports the NVML
// that is really loadable. Each reader declares the structures only it uses beside these.
#include <initializer_list>
#include <string>

#include "harness/fingerprint/dynamic_library.hpp"

namespace fabricgate::fingerprint::nvml {

using Return = int;                             // nvmlReturn_t
inline constexpr Return kSuccess = 0;           // NVML_SUCCESS
inline constexpr Return kInsufficientSize = 7;  // NVML_ERROR_INSUFFICIENT_SIZE
inline constexpr Return kGpuIsLost = 15;        // NVML_ERROR_GPU_IS_LOST

struct DeviceOpaque;
using Device = DeviceOpaque*;  // nvmlDevice_t

using InitFn = Return (*)();  // nvmlInit_v2, nvmlShutdown
using ErrorStringFn = const char* (*)(Return);
using CountFn = Return (*)(unsigned*);
using HandleFn = Return (*)(unsigned, Device*);
using DeviceTextFn = Return (*)(Device, char*, unsigned);
using DeviceUnsignedFn = Return (*)(Device, unsigned*);

// The first of `names` the library has (a newer versioned entry point before the older one);
// nullptr when it has none (an older driver may lack a newer entry point).
template <class Fn>
Fn first_of(const DynamicLibrary& lib, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    if (Fn fn = lib.function<Fn>(name)) return fn;
  }
  return nullptr;
}

// nvmlErrorString's text for `rc`, or "NVML error N" where the library has no such function.
inline std::string describe(ErrorStringFn error_string, Return rc) {
  const char* text = error_string != nullptr ? error_string(rc) : nullptr;
  return text != nullptr ? std::string(text) : "NVML error " + std::to_string(rc);
}

}  // namespace fabricgate::fingerprint::nvml
