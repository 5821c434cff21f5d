// Suite bytes -> load_suite (it reads a file: the bytes go to one temp file per process). An
// accepted suite's env must be what is_safe_env_* promise: it reaches the launcher's argv.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/suite.hpp"
#include "fuzz/fuzz_common.hpp"

namespace {

const std::filesystem::path& suite_file() {
  static const std::filesystem::path file =
      std::filesystem::temp_directory_path() /
      ("fabricgate-fuzz-suite-" + std::to_string(::getpid()) + ".json");
  return file;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  {
    std::ofstream out(suite_file(), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));  // NOLINT
  }
  return fabricgate::fuzz::expect_only_input_errors([&] {
    const fabricgate::Suite s = fabricgate::load_suite(suite_file());
    if (!fabricgate::is_safe_name(s.name)) __builtin_trap();
    for (const auto& [k, v] : s.env) {
      if (!fabricgate::is_safe_env_name(k) || !fabricgate::is_safe_env_value(v)) __builtin_trap();
    }
  });
}
