#pragma once
// Factory for the NCCL collective backend. The header is vendor-free so main.cpp can ask for it
// in every build; without NCCL the factory explains why there is none.
#include <memory>
#include <string>
#include <vector>

#include "bench/engine/collective_backend.hpp"
#include "bench/engine/communicator.hpp"
#include "bench/engine/measurement.hpp"

namespace fabricgate::bench {

struct NcclBackendOptions {
  // The GPUs this process drives: one normally; several in the in-process multi-GPU mode (P02),
  // where NCCL rank = process rank × GPUs per process + index.
  std::vector<int> devices;
  // Initialisation that takes longer is aborted: the suite plan's hang timeout.
  double init_timeout_seconds = MeasurePlan{}.timeout_seconds;
  bool nonblocking =
      false;  // ncclConfig_t.blocking = 0 (labelled /nonblocking; see nccl_comms.hpp)
};

struct NcclBackendResult {
  std::unique_ptr<CollectiveBackend> backend;  // null when there is none
  std::string why_not;
  bool hung = false;  // initialisation missed its deadline on some rank (communicators aborted)
};

// Creates the NCCL communicators over all ranks (collective: every rank calls it, with the same
// number of devices). No backend, with `why_not`, when NCCL is not built in or init failed.
NcclBackendResult make_nccl_backend(Communicator& comm, const NcclBackendOptions& options);
// Version of the NCCL library loaded at run time ("2.28.3"), empty when none.
std::string nccl_runtime_version();

}  // namespace fabricgate::bench
