#pragma once
// Versions of the communication libraries that are actually loadable at run time (NCCL, MPI,
// CUDA runtime), found with dlopen the way the benchmark's loader will find them, plus the NCCL
// configuration files that silently change NCCL's behaviour. Decoders are pure and unit-tested.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/json_file.hpp"

namespace fabricgate::fingerprint {

struct LibraryVersion {
  bool available = false;
  std::string reason;   // why not (dlerror text, missing symbol, call failed)
  std::string version;  // short form: "2.28.3", "Open MPI 4.1.6", "13.0"
  std::string detail;   // the library's own full text where it has one (MPI)
  std::string path;     // the file the loader picked
  int code = 0;         // numeric version as the library reported it (NCCL, CUDA)
};

json to_json(const LibraryVersion& library);

// ncclGetVersion's code: 22803 -> "2.28.3" (>= 2.9 encodes X*10000+Y*100+Z, older X*1000+Y*100+Z).
std::string nccl_version_name(int code);
// CUDA's code: 13000 -> "13.0", 12040 -> "12.4"; "" for 0.
std::string cuda_version_name(int code);
// MPI_Get_library_version text -> short form: "Open MPI v4.1.6, package: ..." -> "Open MPI 4.1.6",
// "MPICH Version:\t4.1.2\n..." -> "MPICH 4.1.2", otherwise the first line.
std::string mpi_short_version(std::string_view full);

LibraryVersion probe_nccl(const std::string& soname = "libnccl.so.2");
// MPI_Get_library_version may be called before MPI_Init (MPI 3.0, section 8.1.1).
LibraryVersion probe_mpi(const std::string& soname = "libmpi.so.40");
// The first of `sonames` that loads and answers cudaRuntimeGetVersion.
LibraryVersion probe_cuda_runtime(const std::vector<std::string>& sonames = {
                                      "libcudart.so", "libcudart.so.13", "libcudart.so.12",
                                      "libcudart.so.11.0", "/usr/local/cuda/lib64/libcudart.so"});

// [{"path": "/etc/nccl.conf", "contents": "..."}] for each file present: <root>/etc/nccl.conf and
// <home>/.nccl.conf (home empty: skipped).
json nccl_config_files(const std::filesystem::path& root, const std::string& home);

}  // namespace fabricgate::fingerprint
