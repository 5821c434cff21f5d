#include "harness/fingerprint/dynamic_library.hpp"

#include <dlfcn.h>
#include <link.h>

namespace fabricgate::fingerprint {

DynamicLibrary::DynamicLibrary(const std::string& soname, bool keep_loaded)
    : soname_(soname), keep_loaded_(keep_loaded) {
  dlerror();  // clear a stale message so error_ belongs to this call
  handle_ = dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle_ == nullptr) {
    const char* message = dlerror();
    error_ = message != nullptr ? message : soname + ": dlopen failed";
  }
}

DynamicLibrary::~DynamicLibrary() {
  if (handle_ != nullptr && !keep_loaded_) dlclose(handle_);
}

std::string DynamicLibrary::path() const {
  if (handle_ == nullptr) return {};
  link_map* map = nullptr;
  if (dlinfo(handle_, RTLD_DI_LINKMAP, &map) != 0 || map == nullptr || map->l_name == nullptr) {
    return {};
  }
  return map->l_name;
}

void* DynamicLibrary::raw_symbol(const char* name) const {
  if (handle_ == nullptr) return nullptr;
  return dlsym(handle_, name);
}

}  // namespace fabricgate::fingerprint
