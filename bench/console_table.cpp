#include "bench/console_table.hpp"

#include <filesystem>

#include "core/errors.hpp"

namespace fabricgate::bench {

ConsoleTable::ConsoleTable(const std::string& requested, const std::string& gbench_json) {
  if (requested == "-" || (requested.empty() && gbench_json.empty())) return;
  const std::filesystem::path path =
      requested.empty() ? std::filesystem::path(gbench_json).parent_path() / "bench-console.txt"
                        : std::filesystem::path(requested);
  file_.open(path, std::ios::out | std::ios::trunc);
  if (!file_) {
    throw InputError(path.string(), requested.empty() ? "--gbench-json" : "--console-table",
                     "a writable file for the benchmark table");
  }
  // No colour codes in a file; the tabular counters layout as on a terminal.
  reporter_ = std::make_unique<benchmark::ConsoleReporter>(benchmark::ConsoleReporter::OO_Tabular);
  reporter_->SetOutputStream(&file_);
  reporter_->SetErrorStream(&file_);  // the context block (CPU, caches, load) is written there too
}

}  // namespace fabricgate::bench
