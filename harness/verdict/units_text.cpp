#include "harness/verdict/units_text.hpp"

#include <fmt/format.h>

namespace fabricgate::verdict {

std::string format_bytes(std::uint64_t bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  std::size_t unit = 0;
  std::uint64_t value = bytes;
  // Only exact multiples move up a prefix, so the printed size is never rounded.
  while (unit + 1 < std::size(kUnits) && value >= 1024 && value % 1024 == 0) {
    value /= 1024;
    ++unit;
  }
  return std::to_string(value) + " " + kUnits[unit];
}

std::string format_metric(double value, bool is_time) {
  if (is_time)
    return value < 100 ? fmt::format("{:.2f} us", value) : fmt::format("{:.1f} us", value);
  return value < 10 ? fmt::format("{:.3f} GB/s", value) : fmt::format("{:.2f} GB/s", value);
}

std::string format_percent(double fraction) { return fmt::format("{:+.1f}%", fraction * 100); }

std::string format_p_value(double p) { return fmt::format("{:.3g}", p); }

}  // namespace fabricgate::verdict
