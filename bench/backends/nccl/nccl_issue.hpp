#pragma once
// One collective on one GPU's communicator: the NCCL call(s) for each CollectiveKind. Gather and
// scatter have no NCCL primitive; they are grouped send/recv, as nccl-tests does them.
#include <cstddef>

#include "bench/backends/nccl/nccl_common.hpp"
#include "bench/engine/collective_backend.hpp"

namespace fabricgate::bench {

struct IssueArgs {
  const CollectiveCall& call;
  ncclComm_t comm;
  cudaStream_t stream;
  int rank;    // NCCL rank of this GPU
  int nranks;  // NCCL ranks in the communicator
  const void* send;
  void* recv;
  std::size_t elem;  // bytes per element
  // Personalised exchanges with uneven blocks (alltoallv): this GPU's counts and offsets,
  // computed once per benchmark, outside the timed loop.
  const PeerBlocks* blocks = nullptr;
};

// ncclSuccess, ncclInProgress (non-blocking communicator: wait until ready), or the first error.
ncclResult_t issue_collective(const IssueArgs& a);

}  // namespace fabricgate::bench
