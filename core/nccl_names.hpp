#pragma once
// NCCL's algorithm and protocol names in one spelling. NCCL spells them differently by place:
// NCCL_ALGO/NCCL_PROTO and the tuning tables say "Ring"/"Simple", while 2.28's TUNING log lines
// and profiler descriptors say "RING"/"SIMPLE" (seen on 2x H200, NCCL 2.28.3), and 2.20-2.23 log
// numeric ids. Both capture paths map to the NCCL_ALGO/NCCL_PROTO spelling so that a baseline
// taken through the logs compares equal to a run taken through the profiler.
#include <array>
#include <cctype>
#include <string_view>

namespace fabricgate::capture {

// Index = NCCL_ALGO_* / NCCL_PROTO_* id (src/include/device.h).
inline constexpr std::array<std::string_view, 7> kNcclAlgos = {
    "Tree", "Ring", "CollNetDirect", "CollNetChain", "NVLS", "NVLSTree", "PAT"};
inline constexpr std::array<std::string_view, 3> kNcclProtos = {"LL", "LL128", "Simple"};

inline bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

// Known name (any case, or a one-digit id) -> canonical spelling; anything else unchanged.
template <std::size_t N>
std::string_view canonical_name(std::string_view name,
                                const std::array<std::string_view, N>& known) {
  if (name.size() == 1 && name[0] >= '0' && name[0] <= '9') {
    const auto id = static_cast<std::size_t>(name[0] - '0');
    if (id < N) return known[id];
  }
  for (std::string_view k : known) {
    if (iequals(k, name)) return k;
  }
  return name;
}

inline std::string_view canonical_algo(std::string_view name) {
  return canonical_name(name, kNcclAlgos);
}
inline std::string_view canonical_proto(std::string_view name) {
  return canonical_name(name, kNcclProtos);
}

}  // namespace fabricgate::capture
