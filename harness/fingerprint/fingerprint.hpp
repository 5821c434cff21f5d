#pragma once
// The platform fingerprint (schema fabricgate.fingerprint/1, docs/DESIGN.md): the identity a
// baseline is keyed on and the facts a report needs. `fabricgate fingerprint` prints it; the run
// orchestrator embeds it in run.json. Collection never fails for missing hardware or libraries:
// a section without them says available = false and why.
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/json_file.hpp"
#include "harness/fingerprint/gpu_query.hpp"

namespace fabricgate::fingerprint {

inline constexpr const char* kFingerprintSchema = "fabricgate.fingerprint/1";

struct CollectOptions {
  // Replaces the derived platform key (validated as a safe path component; InputError if not).
  std::optional<std::string> platform_override;
  // Filesystem root for /proc, /sys and /etc reads; tests point it at a fake tree.
  std::filesystem::path root = "/";
  // GPU source; nullptr means NVML (dlopen libnvidia-ml.so.1). Not owned.
  const GpuQuery* gpu_query = nullptr;
  // "NAME=VALUE" entries; nullopt means this process's environment.
  std::optional<std::vector<std::string>> environment;
  // libfabric listing program, run with no arguments; "" skips it.
  std::string fi_info_program = "fi_info";
  std::chrono::milliseconds fi_info_timeout{30000};
  // dlopen NCCL, MPI and the CUDA runtime for their versions; off in tests that need determinism.
  bool probe_libraries = true;
};

json collect(const CollectOptions& options);

// A short human-readable summary of a fingerprint document (the default CLI output).
std::string summarize(const json& fingerprint);

}  // namespace fabricgate::fingerprint
