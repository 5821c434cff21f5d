#pragma once
// Paths a write has in flight: a temporary file before its rename, an import's temporary
// directory before it becomes the run directory. While one is registered, SIGTERM, SIGINT and
// SIGHUP remove it (files first, then directories) before the process ends with that signal, so
// a stopped job leaves no half-written temporary behind. A signal handler someone else installed
// is left alone (the launcher's own, while it runs the bench): that code finishes its write and
// the temporary is renamed or removed as usual. SIGKILL cannot be caught: the writers also clean
// their stale temporaries on their next start.
#include <filesystem>

namespace fabricgate {

class InFlightPath {
 public:
  // `directory`: removed with rmdir() (empty by then: its files are registered too).
  InFlightPath(const std::filesystem::path& path, bool directory);
  ~InFlightPath();
  InFlightPath(const InFlightPath&) = delete;
  InFlightPath& operator=(const InFlightPath&) = delete;

 private:
  int slot_ = -1;  // -1: too many in flight or the path too long; nothing is cleaned then
};

}  // namespace fabricgate
