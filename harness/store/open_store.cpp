#include <filesystem>

#include "core/errors.hpp"
#include "harness/store/results_store.hpp"
#include "harness/store/sqlite_store.hpp"
#ifdef FABRICGATE_HAVE_LIBPQ
#include "harness/store/postgres_store.hpp"
#endif

namespace fabricgate::store {

bool postgresql_available() {
#ifdef FABRICGATE_HAVE_LIBPQ
  return true;
#else
  return false;
#endif
}

std::unique_ptr<ResultsStore> open_store(const StoreLocation& location, Access access) {
  switch (location.kind) {
    case StoreKind::none:
      throw InputError(location.origin, "",
                       "a results store (this command needs one; found \"none\")");
    case StoreKind::sqlite: {
      // SQLite says only "disk I/O error" for a directory; say what it is, before opening it.
      std::error_code ec;
      if (std::filesystem::is_directory(location.target, ec))
        throw InputError(location.origin, "",
                         "sqlite:PATH names a file, not a directory (" + location.target +
                             " is a directory; e.g. sqlite:" + location.target +
                             "/fabricgate.sqlite)");
      return open_sqlite_store(location.target, location.display, access);
    }
    case StoreKind::postgresql:
#ifdef FABRICGATE_HAVE_LIBPQ
      return open_postgres_store(location.target, location.display, access, location.timeout);
#else
      throw InputError(
          location.origin, "",
          "sqlite:PATH: this fabricgate was built without libpq (apt-get install libpq-dev)");
#endif
  }
  throw InputError(location.origin, "", "a known store kind");
}

}  // namespace fabricgate::store
