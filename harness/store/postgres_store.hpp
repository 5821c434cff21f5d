#pragma once
// The shared backend: PostgreSQL through libpq. The connection string goes to libpq untouched,
// so host, port, user, sslmode and service files work as libpq documents them; the password
// comes from PGPASSWORD / PGPASSFILE / ~/.pgpass only. Each run is one transaction: the run row,
// its new keys (INSERT ... ON CONFLICT DO NOTHING, in sorted order so that two writers never
// deadlock) and its medians (COPY). Schema creation and migration hold an advisory lock, so two
// runners opening a new store at once do not both create it.
#include <memory>
#include <string>

#include "harness/store/results_store.hpp"

namespace fabricgate::store {

std::unique_ptr<ResultsStore> open_postgres_store(const std::string& conninfo,
                                                  const std::string& display);

}  // namespace fabricgate::store
