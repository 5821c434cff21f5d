#pragma once
// Size sweeps with nccl-tests habits: -b MIN -e MAX and either -f FACTOR or -i INCREMENT, or an
// explicit list. Sizes are bytes; "16G" means 16 GiB (binary prefixes for sizes, P08).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fabricgate::bench {

struct SizeSweep {
  std::uint64_t min_bytes = 8;
  std::uint64_t max_bytes = 1 << 20;
  double factor = 2.0;  // used when increment == 0
  std::uint64_t increment = 0;
  std::vector<std::uint64_t> list;  // when non-empty, the sweep is exactly this list
};

// "8", "64K", "16M", "1G", "16GiB" → bytes; nullopt for anything else.
std::optional<std::uint64_t> parse_size(std::string_view text);
std::vector<std::uint64_t> expand(const SizeSweep& sweep);
// "1.0 KiB", "16 MiB", "8 B": how sizes are printed.
std::string format_size(std::uint64_t bytes);

}  // namespace fabricgate::bench
