// NCCL collectives on GPU memory, one communicator over all ranks, one stream per rank.
#include "bench/backends/nccl/nccl_backend.hpp"

#include <cstring>

#include "bench/backends/nccl/nccl_collective_op.hpp"
#include "bench/backends/nccl/nccl_common.hpp"
#include "bench/capture/capture_json.hpp"
#include "bench/capture/profiler_plugin.hpp"

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

std::string nccl_error(ncclResult_t rc) { return std::string("NCCL error: ") + ncclGetErrorString(rc); }
std::string cuda_error(cudaError_t rc) { return std::string("CUDA error: ") + cudaGetErrorString(rc); }

namespace {

class NcclBackend final : public CollectiveBackend {
 public:
  NcclBackend(Communicator& comm, ncclComm_t nccl, cudaStream_t stream) : comm_(comm), nccl_(nccl), stream_(stream) {}
  ~NcclBackend() override {
    ncclCommDestroy(nccl_);
    cudaStreamDestroy(stream_);
  }
  NcclBackend(const NcclBackend&) = delete;
  NcclBackend& operator=(const NcclBackend&) = delete;

  std::string name() const override { return "nccl"; }

  std::string unsupported_reason(const CollectiveCall& call) const override {
    if (!nccl_type(call.dtype)) {
      return "NCCL " + nccl_runtime_version() + " build has no " + std::string(to_string(call.dtype));
    }
    const auto kind = call.def->kind;
    if (call.in_place && (kind == CollectiveKind::reduce_scatter || kind == CollectiveKind::alltoall ||
                          kind == CollectiveKind::sendrecv)) {
      return "in-place " + call.def->name + " is not measured (out of place only)";
    }
    return {};
  }

  std::unique_ptr<MeasuredOp> create(const CollectiveCall& call, std::string& skip_reason) override {
    return make_nccl_collective_op(comm_, nccl_, stream_, call, skip_reason);
  }

  // What NCCL chose for this benchmark's operations, from the profiler plugin compiled into the
  // bench (NCCL >= 2.27). Without it (older NCCL, or the user's own profiler) the harness falls
  // back to rank 0's TUNING log lines.
  void begin_capture(const std::string& key) override { capture::profiler().set_label(key); }
  nlohmann::json end_capture(const std::string& key) override {
    if (!capture::profiler().active()) return nullptr;
    return capture::choice_to_json(capture::profiler().take(key));
  }

 private:
  Communicator& comm_;
  ncclComm_t nccl_;
  cudaStream_t stream_;
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

std::unique_ptr<CollectiveBackend> make_nccl_backend(Communicator& comm, const NcclBackendOptions& options,
                                                     std::string& why_not) {
  // Every rank takes part in every step, whatever happens, so that no rank waits forever.
  ncclUniqueId id{};
  std::string error;
  if (comm.rank() == 0) {
    if (const ncclResult_t rc = ncclGetUniqueId(&id); rc != ncclSuccess) error = nccl_error(rc);
  }
  const std::string shared =
      comm.broadcast(std::string(reinterpret_cast<const char*>(&id), sizeof id), 0);
  std::memcpy(&id, shared.data(), sizeof id);
  if (!comm.all_agree(error.empty())) {
    why_not = "ncclGetUniqueId failed on rank 0";
    return nullptr;
  }
  cudaStream_t stream = nullptr;
  ncclComm_t nccl = nullptr;
  if (const cudaError_t rc = cudaSetDevice(options.device); rc != cudaSuccess) error = cuda_error(rc);
  if (error.empty()) {
    if (const cudaError_t rc = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking); rc != cudaSuccess) {
      error = cuda_error(rc);
    }
  }
  if (error.empty()) {
    if (const ncclResult_t rc = ncclCommInitRank(&nccl, comm.size(), id, comm.rank()); rc != ncclSuccess) {
      error = nccl_error(rc);
    }
  }
  if (!comm.all_agree(error.empty())) {
    why_not = error.empty() ? "NCCL initialisation failed on another rank" : error;
    if (nccl) ncclCommDestroy(nccl);
    if (stream) cudaStreamDestroy(stream);
    return nullptr;
  }
  return std::make_unique<NcclBackend>(comm, nccl, stream);
}

}  // namespace fabricgate::bench
