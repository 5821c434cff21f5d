#include "harness/ab/ab_library_guard.hpp"

#include "core/errors.hpp"

namespace fabricgate::ab {

namespace {

std::string join_names(const std::set<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out.empty() ? "(none)" : out;
}

std::string describe(const LoadedLibraries& l) {
  return "NCCL " + (l.nccl_version.empty() ? std::string("(none)") : l.nccl_version) + " from " +
         join_names(l.nccl_libraries) + ", MPI " +
         (l.mpi_version.empty() ? std::string("(unknown)") : l.mpi_version);
}

}  // namespace

void verify_loaded_libraries(const AbSide& side, const LoadedLibraries& loaded,
                             const std::string& launch, const std::string& where) {
  const std::string who = "side " + side.label + " (launch " + launch + ", " + where + ")";
  if (loaded.nccl_libraries.size() > 1) {
    throw InputError(
        who + ": the ranks loaded different NCCL libraries (" + join_names(loaded.nccl_libraries) +
        "); every node must see the same library (LD_LIBRARY_PATH is forwarded by mpirun -x)");
  }
  if (loaded.capture_nccl_versions_full.size() > 1) {
    throw InputError(who + ": NCCL's logs show different versions across ranks (" +
                     join_names(loaded.capture_nccl_versions_full) + ")");
  }
  if (!loaded.capture_nccl_version.empty() && !loaded.nccl_version.empty() &&
      loaded.capture_nccl_version != loaded.nccl_version) {
    throw InputError(who + ": NCCL's log says version " + loaded.capture_nccl_version +
                     " but ncclGetVersion says " + loaded.nccl_version);
  }
  if (side.nccl_expected.empty()) return;
  if (loaded.nccl_libraries.empty()) {
    throw InputError(who + ": nccl=" + side.nccl +
                     " was asked for, but fabricgate-bench loaded no NCCL library "
                     "(built without NCCL?), so the side cannot be verified");
  }
  const std::string& got = *loaded.nccl_libraries.begin();
  if (got != side.nccl_expected) {
    throw InputError(
        who + ": nccl=" + side.nccl + " means " + side.nccl_expected + ", but the bench loaded " +
        got + " (NCCL " + loaded.nccl_version +
        "); the LD_LIBRARY_PATH entry did not win: an RPATH in "
        "fabricgate-bench, an LD_PRELOAD, or a library that is not named libnccl.so.2");
  }
}

void require_same_libraries(const AbSide& side, const LoadedLibraries& first,
                            const std::string& first_launch, const LoadedLibraries& now,
                            const std::string& launch) {
  if (first.nccl_version == now.nccl_version && first.nccl_libraries == now.nccl_libraries &&
      first.mpi_version == now.mpi_version) {
    return;
  }
  throw InfraError(
      "side " + side.label + " loaded " + describe(first) + " in launch " + first_launch + " but " +
      describe(now) + " in launch " + launch +
      ": the machine changed while the A/B ran; its results are not comparable, run it again");
}

}  // namespace fabricgate::ab
