#include "harness/fingerprint/library_probe.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <regex>

#include "harness/fingerprint/dynamic_library.hpp"
#include "harness/fingerprint/text_files.hpp"
#include "harness/model/secret_redaction.hpp"

namespace fabricgate::fingerprint {

json to_json(const LibraryVersion& library) {
  return {{"available", library.available}, {"reason", library.reason},
          {"version", library.version},     {"detail", library.detail},
          {"path", library.path},           {"code", library.code}};
}

std::string nccl_version_name(int code) {
  if (code <= 0) return {};
  const bool new_scheme = code >= 10000;  // NCCL_VERSION_CODE changed layout at 2.9
  const int major = new_scheme ? code / 10000 : code / 1000;
  const int minor = new_scheme ? (code % 10000) / 100 : (code % 1000) / 100;
  const int patch = code % 100;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

std::string cuda_version_name(int code) {
  if (code <= 0) return {};
  return std::to_string(code / 1000) + "." + std::to_string((code % 1000) / 10);
}

std::string mpi_short_version(std::string_view full) {
  const std::string text(full);
  std::smatch match;
  if (std::regex_search(text, match, std::regex(R"(Open MPI v?([0-9][0-9A-Za-z.\-]*))"))) {
    return "Open MPI " + match[1].str();
  }
  if (std::regex_search(text, match, std::regex(R"(MPICH Version:\s*([0-9][0-9A-Za-z.\-]*))"))) {
    return "MPICH " + match[1].str();
  }
  if (std::regex_search(text, match, std::regex(R"(Intel\(R\) MPI Library ([0-9][0-9.]*))"))) {
    return "Intel MPI " + match[1].str();
  }
  return trim(text.substr(0, text.find('\n')));
}

LibraryVersion probe_nccl(const std::string& soname) {
  LibraryVersion out;
  const DynamicLibrary lib(soname);
  if (!lib.loaded()) {
    out.reason = lib.error();
    return out;
  }
  out.path = lib.path();
  using GetVersionFn = int (*)(int*);  // ncclResult_t ncclGetVersion(int*)
  const auto get_version = lib.function<GetVersionFn>("ncclGetVersion");
  if (get_version == nullptr) {
    out.reason = soname + " has no ncclGetVersion";
    return out;
  }
  if (const int rc = get_version(&out.code); rc != 0) {
    out.reason = "ncclGetVersion failed with ncclResult_t " + std::to_string(rc);
    return out;
  }
  out.version = nccl_version_name(out.code);
  out.available = true;
  return out;
}

LibraryVersion probe_mpi(const std::string& soname) {
  LibraryVersion out;
  // Kept loaded: Open MPI registers atexit/component state that does not survive dlclose.
  const DynamicLibrary lib(soname, /*keep_loaded=*/true);
  if (!lib.loaded()) {
    out.reason = lib.error();
    return out;
  }
  out.path = lib.path();
  using LibraryVersionFn = int (*)(char*, int*);  // MPI_Get_library_version
  const auto get_version = lib.function<LibraryVersionFn>("MPI_Get_library_version");
  if (get_version == nullptr) {
    out.reason = soname + " has no MPI_Get_library_version";
    return out;
  }
  // MPI_MAX_LIBRARY_VERSION_STRING is 256 in Open MPI, 8192 in MPICH: take the larger.
  std::array<char, 8192> buffer{};
  int length = 0;
  if (const int rc = get_version(buffer.data(), &length); rc != 0) {
    out.reason = "MPI_Get_library_version failed with " + std::to_string(rc);
    return out;
  }
  // The reported length may count the terminating NUL (Open MPI does): stop at the first NUL.
  const auto limit =
      static_cast<std::size_t>(std::clamp(length, 0, static_cast<int>(buffer.size())));
  out.detail = trim(std::string_view(buffer.data(), strnlen(buffer.data(), limit)));
  out.version = mpi_short_version(out.detail);
  out.available = true;
  return out;
}

LibraryVersion probe_cuda_runtime(const std::vector<std::string>& sonames) {
  LibraryVersion out;
  std::string reasons;
  for (const auto& soname : sonames) {
    const DynamicLibrary lib(soname);
    if (!lib.loaded()) {
      reasons += (reasons.empty() ? "" : "; ") + lib.error();
      continue;
    }
    using RuntimeVersionFn = int (*)(int*);  // cudaError_t cudaRuntimeGetVersion(int*)
    const auto get_version = lib.function<RuntimeVersionFn>("cudaRuntimeGetVersion");
    if (get_version == nullptr || get_version(&out.code) != 0) {
      reasons += (reasons.empty() ? "" : "; ") + soname + ": cudaRuntimeGetVersion unusable";
      continue;
    }
    out.path = lib.path();
    out.version = cuda_version_name(out.code);
    out.available = true;
    return out;
  }
  out.reason = "no loadable CUDA runtime: " + reasons;
  return out;
}

json nccl_config_files(const std::filesystem::path& root, const std::string& home) {
  json files = json::array();
  std::vector<std::filesystem::path> candidates{under_root(root, "/etc/nccl.conf")};
  if (!home.empty()) candidates.push_back(std::filesystem::path(home) / ".nccl.conf");
  for (const auto& path : candidates) {
    if (auto text = read_text(path))
      files.push_back({{"path", path.string()}, {"contents", recordable_config_text(*text)}});
  }
  return files;
}

}  // namespace fabricgate::fingerprint
