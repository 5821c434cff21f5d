#pragma once
// An A/B result is only worth something when each side ran what it claims. Before a launch's
// numbers are used, the libraries it really loaded (ncclGetVersion and the real path of libnccl per
// rank from the bench, the version in NCCL's own log) are checked against the side's spec, and
// against the side's earlier launches.
#include <string>

#include "harness/ab/ab_compare.hpp"

namespace fabricgate::ab {

// Throws InputError (exit 2: the spec does not do what it says, rerunning will not help) when
// the side named nccl=PATH but the bench loaded another library or none, when the ranks of one
// launch loaded different NCCL libraries or versions, or when NCCL's log and ncclGetVersion
// disagree. `launch` names the launch ("b-2") and `where` its run directory.
void verify_loaded_libraries(const AbSide& side, const LoadedLibraries& loaded,
                             const std::string& launch, const std::string& where);

// Throws InfraError (exit 3: the machine changed while the A/B ran; rerun it) when a launch of a
// side loaded another NCCL or MPI than the side's first launch.
void require_same_libraries(const AbSide& side, const LoadedLibraries& first,
                            const std::string& first_launch, const LoadedLibraries& now,
                            const std::string& launch);

}  // namespace fabricgate::ab
