#include "harness/cli/shipped_suites.hpp"

#ifndef FABRICGATE_SOURCE_DIR
#define FABRICGATE_SOURCE_DIR "."
#endif
// The suites directory relative to the directory of the installed executable (from CMake's
// install layout, e.g. ../share/fabricgate/suites).
#ifndef FABRICGATE_SUITES_FROM_BINDIR
#define FABRICGATE_SUITES_FROM_BINDIR "../share/fabricgate/suites"
#endif

namespace fabricgate::cli {

namespace fs = std::filesystem;

fs::path shipped_suites_dir() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed =
        (self.parent_path() / FABRICGATE_SUITES_FROM_BINDIR).lexically_normal();
    if (fs::is_directory(installed, ec)) return installed;
  }
  return fs::path(FABRICGATE_SOURCE_DIR) / "suites";
}

}  // namespace fabricgate::cli
