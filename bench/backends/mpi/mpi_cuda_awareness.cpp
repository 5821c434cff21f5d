#include "bench/backends/mpi/mpi_cuda_awareness.hpp"

#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's extensions: the CUDA query lives here
#endif

namespace fabricgate::bench {

std::string mpi_cuda_unaware_reason() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  // Built with CUDA support; the run-time answer can still be no (e.g. CUDA disabled by MCA).
  if (MPIX_Query_cuda_support() == 1) return {};
  return "this MPI was built CUDA-aware but MPIX_Query_cuda_support() says no CUDA support at run "
         "time";
#elif defined(MPIX_CUDA_AWARE_SUPPORT)
  return "this MPI is not CUDA-aware (mpi-ext.h: MPIX_CUDA_AWARE_SUPPORT = 0, built without CUDA); "
         "device buffers are never passed to it";
#else
  return "this MPI offers no CUDA-awareness query (no MPIX_CUDA_AWARE_SUPPORT in mpi-ext.h); "
         "device buffers are never passed to it";
#endif
}

}  // namespace fabricgate::bench
