#pragma once
// The platform key: the directory name baselines are stored and looked up under
// (results/<platform>/..., baselines/<platform>/...). It must be stable across reboots, driver
// updates and host names, and change when the hardware that shapes the numbers changes:
//   GPU machine: <gpu model slug>[-sxm]-x<count>[-nv<min NVLinks between any pair>|-pcie]
//                e.g. "h200-sxm-x2-nv18"
//   no GPU:      cpu-<short cpu model slug>-c<logical cores>, e.g. "cpu-amd-epyc-9b14-c2"
#include <string>
#include <string_view>

namespace fabricgate::fingerprint {

struct PlatformFacts {
  std::string gpu_model;  // "" when there is no GPU
  unsigned gpu_count = 0;
  bool nvlink_active = false;     // any GPU has an active NVLink
  unsigned min_pair_nvlinks = 0;  // over all GPU pairs; 0 when a pair has none
  std::string cpu_model;
  unsigned logical_cores = 0;
};

// Lower case; every run of characters other than [a-z0-9] becomes one '-'; no leading/trailing '-'.
std::string slug(std::string_view text);
// "NVIDIA H200" -> "h200", "NVIDIA A100-SXM4-80GB" -> "a100-sxm4-80gb".
std::string gpu_model_slug(std::string_view name);
// Drops trademarks, "CPU", "Processor", "<n>-Core", clock speeds and "with ... Graphics":
// "AMD EPYC 9B14 96-Core Processor" -> "amd-epyc-9b14",
// "Intel(R) Xeon(R) Platinum 8480+ CPU @ 2.00GHz" -> "intel-xeon-platinum-8480". At most 40 chars.
std::string cpu_model_slug(std::string_view model);

std::string derive_platform_key(const PlatformFacts& facts);

// Throws InputError naming `origin` and `field` unless `key` is a safe path component
// (require_safe_name in core/json_file.hpp).
void validate_platform_key(std::string_view key, const std::string& origin,
                           const std::string& field);

}  // namespace fabricgate::fingerprint
