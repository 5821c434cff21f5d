#pragma once
// One sysfs counter file read with the errno kept: "permission denied" (a container without
// CAP_SYS_ADMIN on some drivers), "invalid argument" (a counter the firmware does not have), or
// "not a number: N/A" are different answers and docs/COUNTERS.md says what each means.
#include <cstdint>
#include <filesystem>
#include <string>
#include <variant>

namespace fabricgate::counters {

// The value, or the reason it could not be read.
std::variant<std::uint64_t, std::string> read_counter_file(const std::filesystem::path& file);

}  // namespace fabricgate::counters
