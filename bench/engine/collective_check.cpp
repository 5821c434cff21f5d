#include <algorithm>
#include <cmath>
#include <cstring>

#include "bench/engine/collective_backend.hpp"

namespace fabricgate::bench {

namespace {

// Every pattern repeats with period lcm(7, 5, nranks), which divides 35·nranks: rank r's element i
// equals element i + 35·nranks for every collective's indexing (blocks are whole elements).
std::size_t pattern_period(int nranks) { return 35u * static_cast<std::size_t>(nranks); }

// Elements checked beyond which the check samples: a full check of 16 GiB on the host would take
// minutes per benchmark; the head, the tail and an even stride catch offset, block and truncation
// errors.
constexpr std::size_t kFullCheckLimit = std::size_t{1} << 24;
constexpr std::size_t kEdge = std::size_t{1} << 22;

}  // namespace

void fill_send_buffer(const CollectiveCall& call, int rank, int nranks, void* host_send) {
  const std::size_t count = call.counts.send_count;
  const std::size_t elem = size_of(call.dtype);
  const std::size_t first = std::min(count, pattern_period(nranks));
  for (std::size_t i = 0; i < first; ++i) {
    store_element(call.dtype, host_send, i, pattern_value(rank, nranks, i, call.redop));
  }
  // Replicate the period by doubling copies: GiB-sized buffers fill at memcpy speed.
  auto* bytes = static_cast<char*>(host_send);
  std::size_t done = first;
  while (done < count) {
    const std::size_t n = std::min(done, count - done);
    std::memcpy(bytes + done * elem, bytes, n * elem);
    done += n;
  }
}

std::int64_t count_wrong_elements(const CollectiveCall& call, int rank, int nranks,
                                  const void* host_recv) {
  const auto input = [&](int r, std::size_t i) {
    // What rank r sent, after the round trip through its element type.
    return pattern_value(r, nranks, i, call.redop);
  };
  // fp8 sums are rounded at every step of the ring; allow a relative error of one part in four.
  const bool fp8 = call.dtype == DataType::fp8_e4m3 || call.dtype == DataType::fp8_e5m2;
  std::int64_t wrong = 0;
  const std::size_t count = call.counts.recv_count;
  const bool sample = count > kFullCheckLimit;
  const std::size_t stride = sample ? count / (kFullCheckLimit - 2 * kEdge) + 1 : 1;
  for (std::size_t i = 0; i < count; i = (!sample || i < kEdge || i + 1 >= count - kEdge)
                                             ? i + 1
                                             : std::min(i + stride, count - kEdge)) {
    const auto expected =
        call.def->expected(rank, nranks, i, call.counts, call.root, input, call.redop);
    if (!expected) continue;
    const double got = load_element(call.dtype, host_recv, i);
    const double tolerance = fp8 ? 0.25 * std::fabs(*expected) + 0.5 : 0.0;
    if (!(std::fabs(got - *expected) <= tolerance)) ++wrong;
  }
  return wrong;
}

}  // namespace fabricgate::bench
