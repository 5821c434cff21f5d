#pragma once
// A dlopen()ed vendor library. fabricgate_fingerprint has no link-time dependency on NVML, cudart,
// NCCL or MPI: the fingerprint must run on a CPU-only CI machine and must report the library that
// is actually loadable at run time (which can differ from the headers a backend was built with).
#include <string>

namespace fabricgate::fingerprint {

class DynamicLibrary {
 public:
  // Opens `soname` with RTLD_NOW | RTLD_LOCAL. Never throws: loaded() says whether it worked and
  // error() keeps dlerror()'s text ("libnvidia-ml.so.1: cannot open shared object file: ...").
  // keep_loaded: skip dlclose() at destruction (some libraries, e.g. Open MPI's, do not survive
  // being unloaded; leaking one handle in a short-lived CLI is the safe side).
  explicit DynamicLibrary(const std::string& soname, bool keep_loaded = false);
  ~DynamicLibrary();
  DynamicLibrary(const DynamicLibrary&) = delete;
  DynamicLibrary& operator=(const DynamicLibrary&) = delete;

  bool loaded() const { return handle_ != nullptr; }
  const std::string& error() const { return error_; }
  const std::string& soname() const { return soname_; }

  // The file the dynamic loader really picked (dlinfo RTLD_DI_LINKMAP); empty when unknown.
  std::string path() const;

  // Resolves a C function; nullptr when absent (an older driver may lack a newer entry point).
  template <class Fn>
  Fn function(const char* name) const {
    void* address = raw_symbol(name);
    // POSIX guarantees a dlsym() result converts to a function pointer.
    return address == nullptr ? nullptr : reinterpret_cast<Fn>(address);
  }

 private:
  void* raw_symbol(const char* name) const;

  std::string soname_;
  void* handle_ = nullptr;
  std::string error_;
  bool keep_loaded_ = false;
};

}  // namespace fabricgate::fingerprint
