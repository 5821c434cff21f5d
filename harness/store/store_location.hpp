#pragma once
// Where the results store lives, from `--store URL`, else $FABRICGATE_STORE, else an SQLite file
// at the results root (<results>/fabricgate.sqlite: next to the run directories it indexes).
//   sqlite:PATH                      an SQLite file (created, with its directory, on first write)
//   postgresql://... | postgres://...  a PostgreSQL URI, handed to libpq as is
//   host=... dbname=...              a libpq conninfo string
//   none                             no store (history falls back to scanning run directories)
// Credentials come from the environment or a file only (PGPASSWORD, PGPASSFILE, ~/.pgpass, libpq's
// own service files): a password written into the URL is refused, so it can never reach a log.
#include <filesystem>
#include <string>

namespace fabricgate::store {

enum class StoreKind { none, sqlite, postgresql };

struct StoreLocation {
  StoreKind kind = StoreKind::none;
  std::string target;   // the SQLite path or the libpq connection string
  std::string display;  // what messages show: the target without user information
  std::string origin;   // "--store", "FABRICGATE_STORE" or "default"
};

// Throws InputError naming `origin` for an unknown scheme, an empty path or a password in the URL.
StoreLocation parse_store_location(const std::string& text, const std::string& origin);

// `option` if given, else $FABRICGATE_STORE if set, else sqlite:<results_root>/fabricgate.sqlite.
StoreLocation resolve_store_location(const std::string& option,
                                     const std::filesystem::path& results_root);

const char* store_kind_name(StoreKind kind);  // "none" | "sqlite" | "postgresql"

}  // namespace fabricgate::store
