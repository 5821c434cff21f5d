// records.jsonl of a crashed run: load_run() on results/<platform>/<run_id>/records.jsonl, the
// line-by-line path (a truncated last line is tolerated, anything earlier is an InputError).
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz/fuzz_common.hpp"
#include "harness/model/run_record.hpp"

namespace {

// One run directory per fuzzing process, rewritten for every input.
const std::filesystem::path& run_dir() {
  static const std::filesystem::path dir = [] {
    auto d = std::filesystem::temp_directory_path() /
             ("fabricgate-fuzz-" + std::to_string(::getpid())) / "results" / "fuzz-platform" /
             "fuzz-run";
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  {
    std::ofstream out(run_dir() / "records.jsonl", std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));  // NOLINT
  }
  return fabricgate::fuzz::expect_only_input_errors([&] {
    const fabricgate::RunRecord run = fabricgate::load_run(run_dir());
    if (run.complete) __builtin_trap();  // records.jsonl alone is never a complete run
  });
}
