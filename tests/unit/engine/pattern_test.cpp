// The data check: simulate each collective independently on the host for n ranks, then the
// engine's expected-value functions must accept the correct result and reject a corrupted one.
#include <gtest/gtest.h>

#include <vector>

#include "bench/engine/collective_backend.hpp"

namespace fabricgate::bench {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using Buffers = std::vector<std::vector<char>>;

// Straightforward host versions of the collectives (what a correct library computes). Not inlined:
// GCC 12 -O2 reports a false free-nonheap-object on the nested vectors once it is.
[[gnu::noinline]] Buffers simulate(const CollectiveCall& c, int n) {
  const std::size_t e = size_of(c.dtype);
  Buffers send(n), recv(n);
  for (int r = 0; r < n; ++r) {
    send[r].resize(c.counts.send_count * e);
    recv[r].assign(c.counts.recv_count * e, 0);
    fill_send_buffer(c, r, n, send[r].data());
  }
  const auto in = [&](int r, std::size_t i) { return load_element(c.dtype, send[r].data(), i); };
  const auto reduce_at = [&](std::size_t i) {
    double acc = in(0, i);
    for (int r = 1; r < n; ++r) {
      const double v = in(r, i);
      if (c.redop == RedOp::sum || c.redop == RedOp::avg) acc += v;
      if (c.redop == RedOp::prod) acc *= v;
      if (c.redop == RedOp::min) acc = std::min(acc, v);
      if (c.redop == RedOp::max) acc = std::max(acc, v);
    }
    return c.redop == RedOp::avg ? acc / n : acc;
  };
  const std::size_t cc = c.counts.call_count;
  for (int r = 0; r < n; ++r) {
    void* out = recv[r].data();
    switch (c.def->kind) {
      case CollectiveKind::all_reduce:
        for (std::size_t i = 0; i < cc; ++i) store_element(c.dtype, out, i, reduce_at(i));
        break;
      case CollectiveKind::gather:  // all_gather's result, on the root only
        if (r != c.root) break;
        [[fallthrough]];
      case CollectiveKind::all_gather:
        for (int s = 0; s < n; ++s)
          for (std::size_t i = 0; i < cc; ++i) store_element(c.dtype, out, s * cc + i, in(s, i));
        break;
      case CollectiveKind::reduce_scatter:
        for (std::size_t i = 0; i < cc; ++i) store_element(c.dtype, out, i, reduce_at(r * cc + i));
        break;
      case CollectiveKind::broadcast:
        for (std::size_t i = 0; i < cc; ++i) store_element(c.dtype, out, i, in(c.root, i));
        break;
      case CollectiveKind::reduce:
        if (r == c.root)
          for (std::size_t i = 0; i < cc; ++i) store_element(c.dtype, out, i, reduce_at(i));
        break;
      case CollectiveKind::alltoall:
        for (int s = 0; s < n; ++s)
          for (std::size_t i = 0; i < cc; ++i)
            store_element(c.dtype, out, s * cc + i, in(s, r * cc + i));
        break;
      case CollectiveKind::alltoallv: {
        // The documented pattern, written out independently: s sends d ((d − s) mod n + 1) units,
        // blocks in rank order in both buffers; cc is the unit.
        const auto units = [n](int src, int dst) {
          return static_cast<std::size_t>(((dst - src) % n + n) % n) + 1;
        };
        std::size_t at = 0;
        for (int s = 0; s < n; ++s) {
          std::size_t from = 0;
          for (int q = 0; q < r; ++q) from += units(s, q) * cc;
          for (std::size_t i = 0; i < units(s, r) * cc; ++i)
            store_element(c.dtype, out, at++, in(s, from + i));
        }
        break;
      }
      case CollectiveKind::sendrecv:
        for (std::size_t i = 0; i < cc; ++i) store_element(c.dtype, out, i, in((r + n - 1) % n, i));
        break;
      case CollectiveKind::scatter:
        for (std::size_t i = 0; i < cc; ++i) store_element(c.dtype, out, i, in(c.root, r * cc + i));
        break;
    }
  }
  return recv;
}

struct Case {
  const char* op;
  DataType dtype;
  RedOp redop;
  int nranks;
};

class PatternCheck : public ::testing::TestWithParam<Case> {};

TEST_P(PatternCheck, AcceptsCorrectAndRejectsCorruptedResults) {
  const Case k = GetParam();
  const CollectiveDef* def = CollectiveRegistry::instance().find(k.op);
  ASSERT_NE(def, nullptr);
  CollectiveCall call{def,     k.dtype,
                      k.redop, /*root=*/k.nranks - 1,
                      false,   def->counts(1000, size_of(k.dtype), k.nranks)};
  Buffers recv = simulate(call, k.nranks);
  for (int r = 0; r < k.nranks; ++r) {
    EXPECT_EQ(count_wrong_elements(call, r, k.nranks, recv[r].data()), 0) << k.op << " rank " << r;
  }
  // Corrupt one element on the last rank (which is the root for rooted ops).
  const int r = k.nranks - 1;
  store_element(k.dtype, recv[r].data(), 3, 100.0);
  EXPECT_EQ(count_wrong_elements(call, r, k.nranks, recv[r].data()), 1) << k.op;
}

INSTANTIATE_TEST_SUITE_P(EveryOp, PatternCheck,
                         ::testing::Values(Case{"all_reduce", DataType::float32, RedOp::sum, 2},
                                           Case{"all_reduce", DataType::int8, RedOp::sum, 16},
                                           Case{"all_reduce", DataType::float16, RedOp::prod, 8},
                                           Case{"all_reduce", DataType::bfloat16, RedOp::avg, 4},
                                           Case{"all_reduce", DataType::uint8, RedOp::min, 3},
                                           Case{"all_reduce", DataType::int64, RedOp::max, 5},
                                           Case{"all_reduce", DataType::int32, RedOp::avg, 3},
                                           Case{"all_gather", DataType::float64, RedOp::sum, 3},
                                           Case{"reduce_scatter", DataType::uint32, RedOp::sum, 4},
                                           Case{"broadcast", DataType::int32, RedOp::sum, 3},
                                           Case{"reduce", DataType::float32, RedOp::max, 4},
                                           Case{"alltoall", DataType::float32, RedOp::sum, 4},
                                           Case{"alltoallv", DataType::float32, RedOp::sum, 2},
                                           Case{"alltoallv", DataType::int32, RedOp::sum, 3},
                                           Case{"alltoallv", DataType::int8, RedOp::sum, 4},
                                           Case{"alltoallv", DataType::float64, RedOp::sum, 5},
                                           Case{"sendrecv", DataType::int8, RedOp::sum, 3},
                                           Case{"gather", DataType::float32, RedOp::sum, 3},
                                           Case{"scatter", DataType::int64, RedOp::sum, 4}),
                         [](const auto& param_info) {
                           return std::string(param_info.param.op) + "_" +
                                  std::string(to_string(param_info.param.dtype)) + "_" +
                                  std::string(to_string(param_info.param.redop)) + "_n" +
                                  std::to_string(param_info.param.nranks);
                         });

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::bench

namespace fabricgate::bench {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

// Beyond 16 Mi elements the check samples the head, the tail and a stride; the fill replicates the
// pattern's period. Both must still accept correct data and catch an error at the edges.
TEST(PatternCheckLarge, SampledCheckOfALargeAllReduce) {
  const CollectiveDef* def = CollectiveRegistry::instance().find("all_reduce");
  const int n = 2;
  const std::size_t bytes = std::size_t{40} << 20;  // 40 Mi int8 elements
  CollectiveCall call{def, DataType::int8, RedOp::sum, 0, false, def->counts(bytes, 1, n)};
  std::vector<char> a(bytes), b(bytes), out(bytes);
  fill_send_buffer(call, 0, n, a.data());
  fill_send_buffer(call, 1, n, b.data());
  // The replicated fill equals the pattern everywhere.
  for (std::size_t i : {std::size_t{0}, std::size_t{12345}, bytes / 2 + 7, bytes - 1}) {
    EXPECT_EQ(load_element(DataType::int8, a.data(), i), pattern_value(0, n, i, RedOp::sum)) << i;
    EXPECT_EQ(load_element(DataType::int8, b.data(), i), pattern_value(1, n, i, RedOp::sum)) << i;
  }
  for (std::size_t i = 0; i < bytes; ++i) out[i] = static_cast<char>(a[i] + b[i]);
  EXPECT_EQ(count_wrong_elements(call, 0, n, out.data()), 0);
  out[bytes - 1] = 0;  // a truncated transfer shows at the tail
  out[5] = 0;          // and a wrong offset at the head
  EXPECT_EQ(count_wrong_elements(call, 0, n, out.data()), 2);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::bench
