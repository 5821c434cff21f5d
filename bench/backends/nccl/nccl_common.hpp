#pragma once
// NCCL/CUDA mappings shared by the NCCL backend files.
#include <cuda_runtime.h>
#include <nccl.h>

#include <optional>
#include <string>

#include "bench/engine/dtype.hpp"

namespace fabricgate::bench {

std::optional<ncclDataType_t> nccl_type(DataType t);
ncclRedOp_t nccl_op(RedOp op);
std::string nccl_error(ncclResult_t rc);
std::string cuda_error(cudaError_t rc);

}  // namespace fabricgate::bench
