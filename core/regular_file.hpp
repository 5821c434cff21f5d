#pragma once
// Reading a file that must be a plain file, without ever blocking on what is not one. A path
// that names a FIFO blocks open(2) until a writer appears, a terminal or socket read until data
// comes: a baseline, run.json, suite, policy, fingerprint or CA bundle path pointed at one hung
// the gate forever. The file is opened non-blocking (so a FIFO's open returns at once), checked
// with fstat on that same descriptor (no window for a swap between check and read), and refused
// unless it is a regular file; then read whole, up to `max_bytes`.
#include <cstddef>
#include <filesystem>
#include <limits>
#include <string>

namespace fabricgate {

struct RegularFileText {
  std::string text;
  std::string error;  // "" when read; else why not, for "<path>: <error>" messages
  bool ok() const { return error.empty(); }
};

RegularFileText read_regular_file(const std::filesystem::path& path,
                                  std::size_t max_bytes = std::numeric_limits<std::size_t>::max());

}  // namespace fabricgate
