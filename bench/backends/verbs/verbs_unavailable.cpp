// Built when fabricgate is configured without libibverbs (FABRICGATE_WITH_VERBS=OFF).
#include "bench/backends/verbs/verbs_backend.hpp"

namespace fabricgate::bench {

std::unique_ptr<MeasuredOp> make_verbs_op(Communicator&, const VerbsConfig&, nlohmann::json&,
                                          std::string& skip_reason) {
  skip_reason = "built without libibverbs headers";
  return nullptr;
}

}  // namespace fabricgate::bench
