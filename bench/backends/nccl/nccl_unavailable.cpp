// Built when fabricgate is configured without NCCL.
#include "bench/backends/nccl/nccl_backend.hpp"

namespace fabricgate::bench {
NcclBackendResult make_nccl_backend(Communicator&, const NcclBackendOptions&) {
  NcclBackendResult out;
  out.why_not = "fabricgate-bench was built without NCCL (FABRICGATE_WITH_NCCL=OFF)";
  return out;
}
std::string nccl_runtime_version() { return {}; }
}  // namespace fabricgate::bench
