#pragma once
// `fabricgate store import DIR`: back-fills the store from run directories, so the history of a
// runner that recorded before the store existed (or of a copied results/ tree) is not lost.
// DIR is a results root (<platform>/<run-id>/run.json) or one platform's directory. A run.json
// that does not load is skipped with a warning naming it; a run directory that holds a
// comparison.json contributes its verdicts too.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "harness/store/results_store.hpp"

namespace fabricgate::store {

struct ImportSummary {
  std::size_t imported = 0;
  std::size_t skipped = 0;
  std::size_t sealed = 0;
  std::vector<std::string> warnings;
};

// Throws InputError when DIR is not a directory or holds no run at all. `vouch_key`: seal each
// imported row with this machine's host key (row_seal.hpp), so it counts as the host's own level;
// "" imports them unsealed (history and dashboard only), and never replaces a sealed row.
ImportSummary import_run_directories(ResultsStore& store, const std::filesystem::path& dir,
                                     const std::string& vouch_key = "");

}  // namespace fabricgate::store
