#pragma once
// Small, bounded reads of sysfs/procfs/etc files. Every reader in this library takes a root
// directory and builds its paths under it, so tests can point it at a fake tree in a temp dir.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace fabricgate::fingerprint {

// The file's text (at most max_bytes; sysfs files are tiny, config files are capped), or nullopt
// when it cannot be read. Never throws.
std::optional<std::string> read_text(const std::filesystem::path& path,
                                     std::size_t max_bytes = 64 * 1024);

// Same, with surrounding whitespace removed (sysfs values end in '\n').
std::optional<std::string> read_trimmed(const std::filesystem::path& path);

std::string trim(std::string_view text);

// `root` / `absolute` ("/sys/class/infiniband" under "/tmp/fake" is "/tmp/fake/sys/class/...").
std::filesystem::path under_root(const std::filesystem::path& root, std::string_view absolute);

}  // namespace fabricgate::fingerprint
