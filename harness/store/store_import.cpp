#include "harness/store/store_import.hpp"

#include <algorithm>

#include "core/errors.hpp"
#include "harness/model/run_record.hpp"
#include "harness/report/history.hpp"
#include "harness/store/row_seal.hpp"

namespace fabricgate::store {

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> run_directories(const fs::path& platform_dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::directory_iterator it(platform_dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_directory(ec) && fs::exists(it->path() / "run.json", ec)) out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

ImportSummary import_run_directories(ResultsStore& store, const fs::path& dir,
                                     const std::string& vouch_key) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw InputError(dir.string(), "", "a results directory to import");
  std::vector<fs::path> platform_dirs;
  if (report::holds_runs(dir)) {
    platform_dirs.push_back(dir);
  } else {
    for (const std::string& p : report::platforms_under(dir)) platform_dirs.push_back(dir / p);
  }
  if (platform_dirs.empty())
    throw InputError(dir.string(), "", "<platform>/<run-id>/run.json files to import, found none");
  ImportSummary summary;
  std::vector<StoredRun> batch;
  for (const fs::path& pd : platform_dirs) {
    for (const fs::path& rd : run_directories(pd)) {
      try {
        const RunRecord run = load_run(rd / "run.json");
        StoredRun row = stored_run_from(run, nullptr);
        if (!vouch_key.empty()) {
          row.host_seal = row_seal(row, vouch_key);
          ++summary.sealed;
        }
        batch.push_back(std::move(row));
      } catch (const InputError& e) {
        summary.warnings.push_back("skipped " + (rd / "run.json").string() + ": " + e.what());
        ++summary.skipped;
      }
    }
  }
  store.record_all(batch);  // one transaction: an interrupted import adds nothing
  summary.imported = batch.size();
  return summary;
}

}  // namespace fabricgate::store
