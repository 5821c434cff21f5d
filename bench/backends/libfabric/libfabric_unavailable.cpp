// Built when fabricgate is configured without libfabric (FABRICGATE_WITH_LIBFABRIC=OFF, or the
// headers are missing, as on the GPU machines): every libfabric benchmark is a skip with a reason.
#include "bench/backends/libfabric/libfabric_backend.hpp"

namespace fabricgate::bench {

std::unique_ptr<MeasuredOp> make_libfabric_op(Communicator&, const LibfabricConfig&,
                                              nlohmann::json&, std::string& skip_reason) {
  skip_reason = "built without libfabric headers";
  return nullptr;
}

std::string libfabric_runtime_version() { return {}; }

}  // namespace fabricgate::bench
