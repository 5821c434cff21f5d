#pragma once
// Active NVLinks of each GPU and what is at their far end, from NVML loaded with dlopen (the
// driver's libnvidia-ml.so.1; nothing is linked at build time, and a machine without it just has
// no NVLink figures). The CUDA runtime cannot count links.
#include <string>
#include <vector>

namespace fabricgate::bench {

// For each bus id ("0000:19:00.0"): one entry per active NVLink holding the remote end's bus id in
// the same form ("" when NVML could not say). Empty result with `reason` set when NVML is unusable.
std::vector<std::vector<std::string>> query_nvlink_remotes(const std::vector<std::string>& bus_ids,
                                                           std::string& reason);

// "00000000:19:00.0" (NVML) or "0000:19:00.0" (CUDA) → "0000:19:00.0", lower case.
std::string normalise_bus_id(const std::string& id);

}  // namespace fabricgate::bench
