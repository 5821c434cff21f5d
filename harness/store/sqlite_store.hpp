#pragma once
// The embedded backend: one SQLite file in WAL mode (readers never block the writer), writes in
// BEGIN IMMEDIATE transactions with a busy timeout, so concurrent runs on one runner queue
// instead of failing, and a killed writer leaves the file as it was before its transaction.
#include <filesystem>
#include <memory>

#include "harness/store/results_store.hpp"

namespace fabricgate::store {

std::unique_ptr<ResultsStore> open_sqlite_store(const std::filesystem::path& file,
                                                const std::string& display,
                                                Access access = Access::write);

}  // namespace fabricgate::store
