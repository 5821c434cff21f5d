#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "bench/backends/nccl/nccl_comms.hpp"
#include "bench/engine/communicator.hpp"
#include "bench/engine/measured_op.hpp"

namespace fabricgate::bench {

// Send + receive `bytes` with `peer` per operation (peer < 0: idle) on the first (only) member of
// `comms`. nullptr + reason when memory is short.
std::unique_ptr<MeasuredOp> make_nccl_pair_op(Communicator& comm, NcclComms& comms, int peer,
                                              std::uint64_t bytes, std::string& skip_reason);

}  // namespace fabricgate::bench
