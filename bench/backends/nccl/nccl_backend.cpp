// NCCL collectives on GPU memory: one communicator over all ranks, one stream per GPU. Usually one
// GPU per process; several in the labelled in-process multi-GPU mode (P02). Communicators are
// non-blocking so that a hang can be aborted (nccl_comms.hpp).
#include "bench/backends/nccl/nccl_backend.hpp"

#include <cstring>

#include "bench/backends/nccl/nccl_collective_op.hpp"
#include "bench/backends/nccl/nccl_common.hpp"
#include "bench/backends/nccl/nccl_comms.hpp"
#include "bench/backends/nccl/nccl_pair_op.hpp"
#include "bench/capture/profiler_plugin.hpp"
#include "core/choice_record.hpp"

namespace fabricgate::bench {

std::optional<ncclDataType_t> nccl_type(DataType t) {
  switch (t) {
    case DataType::int8: return ncclInt8;
    case DataType::uint8: return ncclUint8;
    case DataType::int32: return ncclInt32;
    case DataType::uint32: return ncclUint32;
    case DataType::int64: return ncclInt64;
    case DataType::uint64: return ncclUint64;
    case DataType::float16: return ncclFloat16;
    case DataType::bfloat16: return ncclBfloat16;
    case DataType::float32: return ncclFloat32;
    case DataType::float64: return ncclFloat64;
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 24, 0)
    case DataType::fp8_e4m3: return ncclFloat8e4m3;
    case DataType::fp8_e5m2: return ncclFloat8e5m2;
#endif
    default: return std::nullopt;
  }
}

ncclRedOp_t nccl_op(RedOp op) {
  switch (op) {
    case RedOp::sum: return ncclSum;
    case RedOp::prod: return ncclProd;
    case RedOp::min: return ncclMin;
    case RedOp::max: return ncclMax;
    case RedOp::avg: return ncclAvg;
  }
  return ncclSum;
}

std::string nccl_error(ncclResult_t rc) {
  return std::string("NCCL error: ") + ncclGetErrorString(rc);
}
std::string cuda_error(cudaError_t rc) {
  return std::string("CUDA error: ") + cudaGetErrorString(rc);
}

namespace {

class NcclBackend final : public CollectiveBackend {
 public:
  NcclBackend(Communicator& comm, std::unique_ptr<NcclComms> comms)
      : comm_(comm), comms_(std::move(comms)) {}
  NcclBackend(const NcclBackend&) = delete;
  NcclBackend& operator=(const NcclBackend&) = delete;

  std::string name() const override { return "nccl"; }
  int gpus_per_process() const override { return comms_->gpus_per_process(); }
  bool nonblocking() const override { return comms_->nonblocking(); }

  std::string unsupported_reason(const CollectiveCall& call) const override {
    if (!nccl_type(call.dtype)) {
      return "NCCL " + nccl_runtime_version() + " build has no " +
             std::string(to_string(call.dtype));
    }
    if (comms_->aborted()) return "the NCCL communicator was aborted after a hang";
    // Measured on 2x H200 (NCCL 2.28.3): capturing one group over two GPUs' streams from one
    // thread fails with "operation not permitted when stream is capturing". Refused, not faked.
    if (call.graph && comms_->gpus_per_process() > 1)
      return "CUDA-graph mode with several GPUs per process is not supported (capturing a "
             "multi-GPU NCCL group "
             "from one thread failed on the GPU machine); use one process per GPU";
    return {};
  }

  std::unique_ptr<MeasuredOp> create(const CollectiveCall& call,
                                     std::string& skip_reason) override {
    return make_nccl_collective_op(comm_, *comms_, call, skip_reason);
  }

  std::unique_ptr<MeasuredOp> create_pair_exchange(int peer, std::uint64_t bytes,
                                                   std::string& skip_reason) override {
    if (comms_->gpus_per_process() != 1) {
      skip_reason = "node pairs need one GPU per process (gpus_per_process is " +
                    std::to_string(comms_->gpus_per_process()) + ")";
      return nullptr;
    }
    return make_nccl_pair_op(comm_, *comms_, peer, bytes, skip_reason);
  }

  // What NCCL chose for this benchmark's operations, from the profiler plugin compiled into the
  // bench (NCCL >= 2.27). Without it (older NCCL, or the user's own profiler) the harness falls
  // back to rank 0's TUNING log lines.
  void begin_capture(const std::string& key) override { capture::profiler().set_label(key); }
  std::optional<Choice> end_capture(const std::string& key) override {
    if (!capture::profiler().active()) return std::nullopt;
    return capture::to_choice(capture::profiler().take(key));
  }

 private:
  Communicator& comm_;
  std::unique_ptr<NcclComms> comms_;
};

}  // namespace

std::string nccl_runtime_version() {
  int v = 0;
  if (ncclGetVersion(&v) != ncclSuccess) return {};
  // NCCL_VERSION_CODE: major*10000 + minor*100 + patch since 2.9 (major*1000 + minor*100 before).
  const int major = v >= 10000 ? v / 10000 : v / 1000;
  const int minor = v >= 10000 ? (v % 10000) / 100 : (v % 1000) / 100;
  const int patch = v % 100;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

NcclBackendResult make_nccl_backend(Communicator& comm, const NcclBackendOptions& options) {
  NcclBackendResult out;
  NcclCommsResult made =
      NcclComms::create(comm, options.devices, options.init_timeout_seconds, options.nonblocking);
  out.hung = made.hung;
  if (!made.comms) {
    out.why_not = made.why_not;
    return out;
  }
  out.backend = std::make_unique<NcclBackend>(comm, std::move(made.comms));
  return out;
}

}  // namespace fabricgate::bench
