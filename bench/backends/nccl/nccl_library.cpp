// dlsym in the default scope finds the definition the dynamic linker bound ncclGetVersion to,
// dladdr names the object holding it; no NCCL header needed, so the function exists in every build.
#include "bench/backends/nccl/nccl_library.hpp"

#include <dlfcn.h>

#include <filesystem>
#include <system_error>

namespace fabricgate::bench {

std::string nccl_library_path() {
  void* symbol = dlsym(RTLD_DEFAULT, "ncclGetVersion");
  Dl_info info{};
  if (symbol == nullptr || dladdr(symbol, &info) == 0 || info.dli_fname == nullptr) return {};
  std::error_code ec;
  const std::filesystem::path real = std::filesystem::canonical(info.dli_fname, ec);
  return ec ? std::string(info.dli_fname) : real.string();
}

}  // namespace fabricgate::bench
