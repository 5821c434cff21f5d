#pragma once
// What a collective is, once, for every layer: its name (the key's op part), which library call
// it is, whether it takes a reduction operator or a root, its bus-bandwidth factor and the
// nccl-tests program that measures the same thing. The bench fills its CollectiveDef from this row
// (bench/engine/collective.hpp) and the nccl-tests importer reads it too, so a busbw factor is
// written once and an imported figure is scaled exactly as a measured one.
//
// Adding a collective: one row here (and its CollectiveKind), its file under
// bench/fixtures/coll/, and one case in each backend (docs/DESIGN.md, "Adding a collective").
#include <array>
#include <string_view>

namespace fabricgate {

// Which library call a backend makes; everything else about a collective is on its row below and
// its CollectiveDef.
enum class CollectiveKind {
  all_reduce,
  all_gather,
  reduce_scatter,
  broadcast,
  reduce,
  alltoall,
  alltoallv,
  sendrecv,
  gather,
  scatter
};

struct CollectiveFacts {
  std::string_view name;  // "all_reduce"
  CollectiveKind kind{};
  bool reduces = false;  // takes a reduction operator
  bool rooted = false;   // takes a root
  // busbw = algbw × factor for n ranks (nccl-tests' convention, so figures compare with it).
  double (*busbw_factor)(int nranks) = nullptr;
  // nccl-tests' program for the same measurement ("all_reduce_perf"); "" when it has none that
  // sizes and scales the same way.
  std::string_view nccl_tests_program;
};

namespace collective_busbw {
// Each rank sends and receives (n−1)/n of the data.
inline constexpr double ring(int n) { return static_cast<double>(n - 1) / n; }
inline constexpr double twice_ring(int n) { return 2.0 * (n - 1) / n; }
inline constexpr double one(int) { return 1.0; }
// alltoallv's circulant counts (bench/fixtures/coll/alltoallv.cpp): rank s sends d
// ((d − s) mod n + 1) units, S = n(n+1)/2 units per rank of which 1 stays local. nccl-tests
// defines alltoall's factor as the share of a rank's data that leaves it, so the same definition
// gives (S − 1)/S = (n−1)(n+2) / (n(n+1)): 2/3 with 2 ranks (alltoall: 1/2), 9/10 with 4.
inline constexpr double uneven_exchange(int n) {
  const double units = static_cast<double>(n) * (n + 1) / 2;
  return (units - 1.0) / units;
}
}  // namespace collective_busbw

inline constexpr std::array<CollectiveFacts, 10> kCollectives{{
    {"all_reduce", CollectiveKind::all_reduce, true, false, collective_busbw::twice_ring,
     "all_reduce_perf"},
    {"all_gather", CollectiveKind::all_gather, false, false, collective_busbw::ring,
     "all_gather_perf"},
    {"reduce_scatter", CollectiveKind::reduce_scatter, true, false, collective_busbw::ring,
     "reduce_scatter_perf"},
    {"broadcast", CollectiveKind::broadcast, false, true, collective_busbw::one, "broadcast_perf"},
    {"reduce", CollectiveKind::reduce, true, true, collective_busbw::one, "reduce_perf"},
    {"alltoall", CollectiveKind::alltoall, false, false, collective_busbw::ring, "alltoall_perf"},
    // nccl-tests' alltoallv_perf draws other per-peer counts, so its figures are not ours.
    {"alltoallv", CollectiveKind::alltoallv, false, false, collective_busbw::uneven_exchange, ""},
    {"sendrecv", CollectiveKind::sendrecv, false, false, collective_busbw::one, "sendrecv_perf"},
    {"gather", CollectiveKind::gather, false, true, collective_busbw::ring, "gather_perf"},
    {"scatter", CollectiveKind::scatter, false, true, collective_busbw::ring, "scatter_perf"},
}};

// The row named `name`, or nullptr.
inline const CollectiveFacts* find_collective(std::string_view name) {
  for (const CollectiveFacts& c : kCollectives) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

// The row measured by nccl-tests' `program` ("all_reduce_perf"), or nullptr.
inline const CollectiveFacts* collective_for_nccl_tests_program(std::string_view program) {
  if (program.empty()) return nullptr;
  for (const CollectiveFacts& c : kCollectives) {
    if (c.nccl_tests_program == program) return &c;
  }
  return nullptr;
}

}  // namespace fabricgate
