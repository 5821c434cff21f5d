#include <cmath>

#include "bench/engine/collective_backend.hpp"

namespace fabricgate::bench {

void fill_send_buffer(const CollectiveCall& call, int rank, int nranks, void* host_send) {
  for (std::size_t i = 0; i < call.counts.send_count; ++i) {
    store_element(call.dtype, host_send, i, pattern_value(rank, nranks, i, call.redop));
  }
}

std::int64_t count_wrong_elements(const CollectiveCall& call, int rank, int nranks, const void* host_recv) {
  const auto input = [&](int r, std::size_t i) {
    // What rank r sent, after the round trip through its element type.
    return pattern_value(r, nranks, i, call.redop);
  };
  // fp8 sums are rounded at every step of the ring; allow a relative error of one part in four.
  const bool fp8 = call.dtype == DataType::fp8_e4m3 || call.dtype == DataType::fp8_e5m2;
  std::int64_t wrong = 0;
  for (std::size_t i = 0; i < call.counts.recv_count; ++i) {
    const auto expected = call.def->expected(rank, nranks, i, call.counts, call.root, input, call.redop);
    if (!expected) continue;
    const double got = load_element(call.dtype, host_recv, i);
    const double tolerance = fp8 ? 0.25 * std::fabs(*expected) + 0.5 : 0.0;
    if (!(std::fabs(got - *expected) <= tolerance)) ++wrong;
  }
  return wrong;
}

}  // namespace fabricgate::bench
