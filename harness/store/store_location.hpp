#pragma once
// Where the results store lives, from `--store URL`, else $FABRICGATE_STORE, else an SQLite file
// at the results root (<results>/fabricgate.sqlite: next to the run directories it indexes).
//   sqlite:PATH                      an SQLite file (created, with its directory, on first write)
//   postgresql://... | postgres://...  a PostgreSQL URI, handed to libpq as is
//   host=... dbname=...              a libpq conninfo string
//   none                             no store (history falls back to scanning run directories)
// Credentials come from the environment or a file only (PGPASSWORD, PGPASSFILE, ~/.pgpass, libpq's
// own service files): a password written into the URL is refused, so it can never reach a log.
#include <chrono>
#include <filesystem>
#include <string>

namespace fabricgate::store {

enum class StoreKind { none, sqlite, postgresql };

// What a command does with the store. A read command (history, store info, dashboard, report)
// opens it read-only: it never creates, migrates or otherwise changes a file or a database, and
// a read-only SQLite file or directory can be read. A write command (run, compare, store import)
// creates the store when it is missing and migrates an older one.
enum class Access { read, write };

struct StoreLocation {
  StoreKind kind = StoreKind::none;
  std::string target;   // the SQLite path or the libpq connection string
  std::string display;  // what messages show: the target without user information
  std::string origin;   // "--store", "FABRICGATE_STORE" or "default"
  // PostgreSQL: the most a connection attempt, and then each statement, may take (server-side
  // statement_timeout and a client-side deadline: a server that accepts and never answers runs
  // no statement). $FABRICGATE_STORE_TIMEOUT (seconds, 1..3600) sets it; default 30 s.
  std::chrono::seconds timeout{30};
};

// Throws InputError naming `origin` for an unknown scheme, an empty path, a password in the URL,
// an SQLite URI filename (file:...?mode=..., :memory:: parameters are never taken from a store
// location, so "imports" into a memory database cannot pass for a store), or a bad
// $FABRICGATE_STORE_TIMEOUT.
StoreLocation parse_store_location(const std::string& text, const std::string& origin);

// `option` if given, else $FABRICGATE_STORE if set, else sqlite:<results_root>/fabricgate.sqlite.
StoreLocation resolve_store_location(const std::string& option,
                                     const std::filesystem::path& results_root);

const char* store_kind_name(StoreKind kind);  // "none" | "sqlite" | "postgresql"

}  // namespace fabricgate::store
