// Built when fabricgate is configured without CUDA: the copy families register their benchmarks
// and every one of them skips with this reason.
#include "bench/backends/cuda_copy/copy_backend.hpp"

namespace fabricgate::bench {

namespace {
constexpr const char* kWhy = "fabricgate-bench was built without CUDA (FABRICGATE_WITH_CUDA=OFF)";
}

CopyPlatform query_copy_platform() {
  CopyPlatform p;
  p.why_no_gpu = kWhy;
  return p;
}

std::unique_ptr<MeasuredOp> make_copy_op(const CopyRequest&, std::string& skip_reason) {
  skip_reason = kWhy;
  return nullptr;
}

std::unique_ptr<MeasuredOp> make_pointer_chase_op(int, int, std::string& skip_reason) {
  skip_reason = kWhy;
  return nullptr;
}

}  // namespace fabricgate::bench
