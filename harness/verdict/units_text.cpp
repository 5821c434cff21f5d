#include "harness/verdict/units_text.hpp"

#include <cstdio>

namespace fabricgate::gate {

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
  char text[64];
  if (is_time) {
    std::snprintf(text, sizeof text, value < 100 ? "%.2f us" : "%.1f us", value);
  } else {
    std::snprintf(text, sizeof text, value < 10 ? "%.3f GB/s" : "%.2f GB/s", value);
  }
  return text;
}

std::string format_percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.1f%%", fraction * 100);
  return text;
}

std::string format_p_value(double p) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", p);
  return buffer;
}

}  // namespace fabricgate::gate
