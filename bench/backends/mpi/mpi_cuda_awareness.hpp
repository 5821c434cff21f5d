#pragma once
// Whether the MPI library may be handed device pointers. Asked of the library itself (Open MPI's
// mpi-ext.h: MPIX_CUDA_AWARE_SUPPORT at build time, MPIX_Query_cuda_support() at run time), never
// assumed from the environment: a non-CUDA-aware MPI given a device pointer crashes in memcpy.
#include <string>

namespace fabricgate::bench {

// Empty when device buffers may be passed to MPI; otherwise why not, for the skip message.
std::string mpi_cuda_unaware_reason();

}  // namespace fabricgate::bench
