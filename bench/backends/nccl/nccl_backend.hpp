#pragma once
// Factory for the NCCL collective backend. The header is vendor-free so main.cpp can ask for it
// in every build; without NCCL the factory explains why there is none.
#include <memory>
#include <string>

#include "bench/engine/collective_backend.hpp"
#include "bench/engine/communicator.hpp"

namespace fabricgate::bench {

struct NcclBackendOptions {
  int device = -1;          // this rank's GPU
  bool use_cuda_graph = false;
};

// Creates the NCCL communicator over all ranks (collective: every rank calls it). Returns nullptr
// with `why_not` set when NCCL is not built in, no GPU is present, or init failed.
std::unique_ptr<CollectiveBackend> make_nccl_backend(Communicator& comm, const NcclBackendOptions& options,
                                                     std::string& why_not);
// Version of the NCCL library loaded at run time ("2.28.3"), empty when none.
std::string nccl_runtime_version();

}  // namespace fabricgate::bench
