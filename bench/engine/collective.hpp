#pragma once
// What a collective is, independent of who runs it (nccl-tests' per-collective table, as data):
// buffer sizing, the bus-bandwidth factor, and the expected result for the data pattern.
// Each collective lives in one small file under bench/fixtures/coll/ and registers itself here.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/engine/dtype.hpp"

namespace fabricgate::bench {

enum class CollectiveKind { all_reduce, all_gather, reduce_scatter, broadcast, reduce, alltoall, sendrecv, gather, scatter };

// Element counts of one call, from the nominal size in bytes (nccl-tests' "size" column).
struct CollectiveCounts {
  std::size_t send_count = 0;  // elements in the send buffer
  std::size_t recv_count = 0;  // elements in the receive buffer
  std::size_t call_count = 0;  // the count argument passed to the library call
  std::size_t bytes = 0;       // nominal size after rounding (what keys and algbw use)
};

struct CollectiveDef {
  std::string name;  // "all_reduce"
  CollectiveKind kind{};
  bool reduces = false;  // takes a reduction operator
  bool rooted = false;   // takes a root
  // Rounds `bytes` down to what the collective can move with `nranks` ranks and element size;
  // zero when no element fits.
  std::function<CollectiveCounts(std::size_t bytes, std::size_t elem_size, int nranks)> counts;
  // busbw = algbw × factor (nccl-tests' convention, so figures compare with it).
  std::function<double(int nranks)> busbw_factor;
  // Expected value of receive-buffer element `index` on `rank`, or nullopt when undefined
  // (e.g. reduce's non-root ranks). `input(r, i)` gives rank r's send element i.
  std::function<std::optional<double>(int rank, int nranks, std::size_t index, const CollectiveCounts&,
                                       int root, const std::function<double(int, std::size_t)>& input,
                                       RedOp op)>
      expected;
};

// Registry filled by the fixture files (static registration, one line each).
class CollectiveRegistry {
 public:
  static CollectiveRegistry& instance();
  void add(CollectiveDef def);
  const CollectiveDef* find(std::string_view name) const;
  const std::vector<CollectiveDef>& all() const { return defs_; }

 private:
  std::vector<CollectiveDef> defs_;
};

struct CollectiveRegistration {
  explicit CollectiveRegistration(CollectiveDef def) { CollectiveRegistry::instance().add(std::move(def)); }
};

// Reduces the inputs of all ranks at one element as the library should (avg = sum / n).
double reduce_inputs(int nranks, std::size_t index, const std::function<double(int, std::size_t)>& input,
                     RedOp op);

// The data pattern: rank r's send element i. Small integers so that every type represents sums of
// up to 16 ranks exactly; prod uses 1s and a single 2 per element so products stay small; avg adds
// +1 on rank 0 and −1 on rank 1 so the sum stays divisible by n.
double pattern_value(int rank, int nranks, std::size_t index, RedOp op);

}  // namespace fabricgate::bench
