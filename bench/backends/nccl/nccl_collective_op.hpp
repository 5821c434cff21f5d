#pragma once
#include <memory>
#include <string>

#include "bench/backends/nccl/nccl_common.hpp"
#include "bench/engine/collective_backend.hpp"
#include "bench/engine/communicator.hpp"

namespace fabricgate::bench {

// One benchmark's device buffers and its timed loop. nullptr + reason when memory is short.
std::unique_ptr<MeasuredOp> make_nccl_collective_op(Communicator& comm, ncclComm_t nccl, cudaStream_t stream,
                                                    const CollectiveCall& call, std::string& skip_reason);

}  // namespace fabricgate::bench
