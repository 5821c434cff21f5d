#pragma once
// The shared backend: PostgreSQL through libpq. The connection string goes to libpq untouched,
// so host, port, user, sslmode and service files work as libpq documents them; the password
// comes from PGPASSWORD / PGPASSFILE / ~/.pgpass only. Each run is one transaction: the run row,
// its new keys (INSERT ... ON CONFLICT DO NOTHING, in sorted order so that two writers never
// deadlock) and its medians (COPY). Schema creation and migration hold an advisory lock, so two
// runners opening a new store at once do not both create it.
// Every wait is bounded by one timeout (StoreLocation::timeout): the connection attempt is polled
// against a deadline (a server that accepts and never answers the startup packet), each statement
// runs under statement_timeout on the server and a client-side deadline (cancelled, then the
// connection dropped), so a dead or silent server is a StoreError (exit 3) naming the bound.
#include <chrono>
#include <memory>
#include <string>

#include "harness/store/results_store.hpp"

namespace fabricgate::store {

std::unique_ptr<ResultsStore> open_postgres_store(const std::string& conninfo,
                                                  const std::string& display, Access access,
                                                  std::chrono::seconds timeout);

}  // namespace fabricgate::store
