// Bytes as an SQLite results store file -> open_store(read) -> every read the commands make
// (platforms, run counts, runs with their medians, one key's runs, the schema version). A store
// is written by others, so any file must end in a StoreError (exit 3) or be read; any other
// exception, a crash, a sanitizer report or a write to the file is a finding.
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz/fuzz_common.hpp"
#include "harness/store/results_store.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path& store_file() {
  static const fs::path file =
      fs::temp_directory_path() / ("fuzz-store-" + std::to_string(::getpid()) + ".sqlite");
  return file;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fs::path& file = store_file();
  std::error_code ec;
  for (const char* suffix : {"-wal", "-shm", "-journal"}) fs::remove(file.string() + suffix, ec);
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  using namespace fabricgate::store;
  try {
    const StoreLocation where = parse_store_location("sqlite:" + file.string(), "fuzz");
    auto store = open_store(where, Access::read);
    static_cast<void>(store->schema_version());
    for (const std::string& platform : store->platforms()) {
      static_cast<void>(store->run_count(platform));
      RunQuery q;
      q.platform = platform;
      q.last = 50;
      for (const StoredRun& r : store->runs(q)) {
        if (r.medians.empty()) continue;
        RunQuery one = q;
        one.key = r.medians.front().key;
        static_cast<void>(store->runs(one));
        break;
      }
    }
  } catch (const StoreError&) {
  } catch (const fabricgate::InputError&) {
  }
  // A read never writes: the file holds exactly the bytes it was given.
  std::ifstream in(file, std::ios::binary);
  const std::string after((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (after != bytes) __builtin_trap();
  return 0;
}
