#pragma once
// Printing figures with their units (P08): sizes in binary prefixes (KiB, MiB, GiB) from exact
// byte counts, rates in decimal GB/s, times in us. Used by the gate's reasons and every renderer.
#include <cstdint>
#include <string>

namespace fabricgate::verdict {

std::string format_bytes(std::uint64_t bytes);          // 65536 -> "64 KiB", 1000 -> "1000 B"
std::string format_metric(double value, bool is_time);  // "12.3 us" | "85.20 GB/s"
std::string format_percent(double fraction);            // 0.053 -> "+5.3%"
std::string format_p_value(double p);  // 0.000123 -> "0.000123" (3 significant digits)

}  // namespace fabricgate::verdict
