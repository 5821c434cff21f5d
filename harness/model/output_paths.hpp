#pragma once
// Paths the user names for output (--out, --results-dir, baseline files) are checked before
// anything is measured, compared or written, so that a typo is an input error naming the path
// (exit 2), not a filesystem exception halfway through (exit 3).
#include <filesystem>
#include <string>

namespace fabricgate {

// `file` can be written atomically: it is not a directory, and its directory exists (or can be
// created) and is writable. Throws InputError naming `option` and the path.
void require_writable_file(const std::filesystem::path& file, const std::string& option);

// `dir` exists as a writable directory or can be created (it is created). InputError otherwise.
void require_writable_directory(const std::filesystem::path& dir, const std::string& option);

}  // namespace fabricgate
