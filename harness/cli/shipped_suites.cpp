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

namespace {

// <exe dir>/<relative> when that directory exists (an installed binary), else "".
fs::path installed_dir(const fs::path& relative) {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  const fs::path installed = (self.parent_path() / relative).lexically_normal();
  return fs::is_directory(installed, ec) ? installed : fs::path();
}

}  // namespace

fs::path shipped_policies_dir() {
  const fs::path installed =
      installed_dir(fs::path(FABRICGATE_SUITES_FROM_BINDIR).parent_path() / "policies");
  return installed.empty() ? fs::path(FABRICGATE_SOURCE_DIR) / "policies" : installed;
}

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
