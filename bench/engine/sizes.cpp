#include "bench/engine/sizes.hpp"

#include "core/suite.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace fabricgate::bench {

std::optional<std::uint64_t> parse_size(std::string_view text) { return parse_size_text(text); }

std::vector<std::uint64_t> expand(const SizeSweep& sweep) {
  if (!sweep.list.empty()) return sweep.list;
  std::vector<std::uint64_t> sizes;
  // Bounded: at most 4096 sizes whatever the parameters.
  for (double size = static_cast<double>(sweep.min_bytes);
       size <= static_cast<double>(sweep.max_bytes) && sizes.size() < 4096;) {
    sizes.push_back(static_cast<std::uint64_t>(size));
    if (sweep.increment > 0) {
      size += static_cast<double>(sweep.increment);
    } else if (sweep.factor > 1.0) {
      size *= sweep.factor;
    } else {
      break;
    }
  }
  return sizes;
}

std::string format_size(std::uint64_t bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int unit = 0;
  while (v >= 1024.0 && unit < 4) {
    v /= 1024.0;
    ++unit;
  }
  if (unit == 0 || v == static_cast<double>(static_cast<std::uint64_t>(v))) {
    return fmt::format("{:.0f} {}", v, kUnits[unit]);
  }
  return fmt::format("{:.1f} {}", v, kUnits[unit]);
}

}  // namespace fabricgate::bench
