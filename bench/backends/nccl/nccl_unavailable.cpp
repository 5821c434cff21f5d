// Built when fabricgate is configured without NCCL.
#include "bench/backends/nccl/nccl_backend.hpp"

namespace fabricgate::bench {
std::unique_ptr<CollectiveBackend> make_nccl_backend(Communicator&, const NcclBackendOptions&, std::string& why_not) {
  why_not = "fabricgate-bench was built without NCCL (FABRICGATE_WITH_NCCL=OFF)";
  return nullptr;
}
std::string nccl_runtime_version() { return {}; }
}  // namespace fabricgate::bench
