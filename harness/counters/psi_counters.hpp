#pragma once
// The launching host's pressure stall information (/proc/pressure/{cpu,memory,io}, Linux >= 4.20
// with PSI on): the "total" microseconds during which some (at least one) or all ("full")
// runnable tasks waited for the resource. Counters psi_<resource>_<some|full>_us, 64-bit; their
// delta over the launch's wall time is the share harness/gate's "runner busy" rule reads for cpu.
#include <filesystem>
#include <map>
#include <string>

#include "harness/model/counters/counter_delta.hpp"

namespace fabricgate::counters {

// {"some": total_us, "full": total_us} from one pressure file's text; lines without total= are
// skipped.
std::map<std::string, std::uint64_t> parse_psi_totals(const std::string& text);

// kind "host", device `host_name`; an absent or unreadable file is an Unread (a kernel without
// PSI, or psi=0 on its command line; a container may hide /proc/pressure).
DeviceSample read_psi_sample(const std::filesystem::path& root, const std::string& host_name);

}  // namespace fabricgate::counters
