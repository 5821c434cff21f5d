#include "harness/model/output_paths.hpp"

#include <unistd.h>

#include "core/errors.hpp"

namespace fabricgate {

namespace fs = std::filesystem;

void require_writable_directory(const fs::path& dir, const std::string& option) {
  const fs::path d = dir.empty() ? fs::path(".") : dir;
  std::error_code ec;
  if (fs::exists(d, ec) && !fs::is_directory(d, ec)) {
    throw InputError(d.string(), "", "a directory for " + option + ", found a file");
  }
  fs::create_directories(d, ec);
  if (ec)
    throw InputError(d.string(), "",
                     "a directory " + option + " can create (" + ec.message() + ")");
  if (::access(d.c_str(), W_OK | X_OK) != 0) {
    throw InputError(d.string(), "", "a directory " + option + " can write to (permission denied)");
  }
}

void require_writable_file(const fs::path& file, const std::string& option) {
  std::error_code ec;
  if (file.empty()) throw InputError(option + ": an output file name");
  if (fs::is_directory(file, ec))
    throw InputError(file.string(), "", "a file name for " + option + ", found a directory");
  const fs::path parent = file.parent_path();
  const fs::path dir = parent.empty() ? fs::path(".") : parent;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec)) {
    throw InputError(file.string(), "",
                     "a file in a directory (" + option + "), but " + dir.string() + " is a file");
  }
  // A missing directory is created on write; its nearest existing ancestor must be writable.
  fs::path existing = dir;
  while (!fs::exists(existing, ec) && existing.has_parent_path() &&
         existing != existing.parent_path()) {
    existing = existing.parent_path();
  }
  // A relative path climbs to its first component ("new/dir" → "new"): that one is created in
  // the working directory, so the working directory is what must be writable.
  if (!fs::exists(existing, ec)) existing = ".";
  if (fs::exists(existing, ec) && !fs::is_directory(existing, ec)) {
    throw InputError(file.string(), "",
                     "a path whose parents are directories (" + option + "), but " +
                         existing.string() + " is a file");
  }
  if (::access(existing.c_str(), W_OK | X_OK) != 0) {
    throw InputError(file.string(), "",
                     "a file in a writable directory (" + option + "), but " +
                         (existing == dir ? existing.string()
                                          : existing.string() + " (where " + dir.string() +
                                                " would be created)") +
                         " is not writable");
  }
}

}  // namespace fabricgate
