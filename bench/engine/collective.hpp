#pragma once
// What a collective is, independent of who runs it (nccl-tests' per-collective table, as data):
// buffer sizing and the expected result for the data pattern. Its name, kind, root, reduction and
// bus-bandwidth factor are its row in core/collective_facts.hpp, copied in at registration. Each
// collective lives in one small file under bench/fixtures/coll/ and registers itself here, with
// every fact a backend or the family needs (in-place form, count rounding, per-peer blocks), so
// adding one means its core row, its file and one case per backend (docs/DESIGN.md).
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/engine/dtype.hpp"
#include "core/collective_facts.hpp"

namespace fabricgate::bench {

// Element counts of one call, from the nominal size in bytes (nccl-tests' "size" column).
struct CollectiveCounts {
  std::size_t send_count = 0;  // elements in the send buffer
  std::size_t recv_count = 0;  // elements in the receive buffer
  std::size_t call_count = 0;  // the count argument passed to the library call
  std::size_t bytes = 0;       // nominal size after rounding (what keys and algbw use)
};

struct CollectiveDef {
  std::string name;  // "all_reduce": its row in core/collective_facts.hpp
  // Copied from that row at registration; a fixture file sets only the name and what follows.
  CollectiveKind kind{};
  bool reduces = false;  // takes a reduction operator
  bool rooted = false;   // takes a root
  // Rounds `bytes` down to what the collective can move with `nranks` ranks and element size;
  // zero when no element fits.
  std::function<CollectiveCounts(std::size_t bytes, std::size_t elem_size, int nranks)> counts;
  // busbw = algbw × factor (nccl-tests' convention, so figures compare with it).
  double (*busbw_factor)(int nranks) = nullptr;
  // Expected value of receive-buffer element `index` on `rank`, or nullopt when undefined
  // (e.g. reduce's non-root ranks). `input(r, i)` gives rank r's send element i.
  std::function<std::optional<double>(
      int rank, int nranks, std::size_t index, const CollectiveCounts&, int root,
      const std::function<double(int, std::size_t)>& input, RedOp op)>
      expected;
  // The in-place form (nccl-tests' convention): where `rank`'s send data sits inside its receive
  // buffer, in elements. Unset: measured out of place only, because MPI's and NCCL's in-place
  // forms of it differ (or one of them has none), and a key must mean the same thing on both.
  std::function<std::size_t(int rank, const CollectiveCounts&)> in_place_offset;
  // Only the root's send buffer is read (broadcast): in place, the other ranks' receive buffers
  // keep the poison, so a broadcast that did nothing is caught.
  bool root_input_only = false;
  // Personalised exchanges (alltoall, alltoallv): elements rank `src` sends to rank `dst`. Blocks
  // lie in rank order in both buffers; peer_blocks() gives counts and offsets.
  std::function<std::size_t(int src, int dst, int nranks, const CollectiveCounts&)> peer_count;

  bool supports_in_place() const { return static_cast<bool>(in_place_offset); }
};

// One rank's blocks of a personalised exchange, in elements: what MPI_Alltoallv's count and
// displacement arrays hold, and what grouped NCCL sends/receives address.
struct PeerBlocks {
  std::vector<std::size_t> send_counts;
  std::vector<std::size_t> send_offsets;
  std::vector<std::size_t> recv_counts;
  std::vector<std::size_t> recv_offsets;
};
// Requires def.peer_count.
PeerBlocks peer_blocks(const CollectiveDef& def, const CollectiveCounts& counts, int rank,
                       int nranks);

// Empty when the family may measure `def` in this placement; otherwise the skip reason.
std::string placement_unsupported_reason(const CollectiveDef& def, bool in_place);

// Registry filled by the fixture files (static registration, one line each). add() completes a
// definition from its core row and refuses a name that has none.
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
  explicit CollectiveRegistration(CollectiveDef def) {
    CollectiveRegistry::instance().add(std::move(def));
  }
};

// Reduces the inputs of all ranks at one element as the library should (avg = sum / n).
double reduce_inputs(int nranks, std::size_t index,
                     const std::function<double(int, std::size_t)>& input, RedOp op);

// The data pattern: rank r's send element i. Small integers so that every type represents sums of
// up to 16 ranks exactly; prod uses 1s and a single 2 per element so products stay small; avg adds
// +1 on rank 0 and −1 on rank 1 so the sum stays divisible by n.
double pattern_value(int rank, int nranks, std::size_t index, RedOp op);

}  // namespace fabricgate::bench
