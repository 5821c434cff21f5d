#pragma once
#include <memory>
#include <string>

#include "bench/backends/nccl/nccl_comms.hpp"
#include "bench/engine/collective_backend.hpp"
#include "bench/engine/communicator.hpp"

namespace fabricgate::bench {

// One benchmark's device buffers (one set per GPU this process drives) and its timed loop.
// nullptr + reason when memory is short.
std::unique_ptr<MeasuredOp> make_nccl_collective_op(Communicator& comm, NcclComms& comms,
                                                    const CollectiveCall& call,
                                                    std::string& skip_reason);

}  // namespace fabricgate::bench
