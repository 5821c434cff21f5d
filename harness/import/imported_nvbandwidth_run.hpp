#pragma once
// nvbandwidth testcases -> p2p / hostcopy keys in the bench's own grammar
// (bench/fixtures/p2p/copy_plan.hpp), so an import meets `fabricgate run --suite p2p` key by key
// where both measure the same copy:
// clang-format off
//   host_to_device_memcpy_ce / device_to_host_memcpy_ce   hostcopy/cuda/{h2d|d2h}/pinned/gpu:G/bytes:N
//   ..._sm (SM copy kernels; the bench's hostcopy is CE)  same + /engine:sm
//   *_bidirectional_memcpy_ce (one direction measured     same + /against:{d2h|h2d}   (no bench twin)
//     while the other runs)
//   device_to_device_memcpy_write_{ce,sm}  row -> column  p2p/{ce|sm}/write/uni/src:row/dst:col/bytes:N
//   device_to_device_memcpy_read_{ce,sm}   column -> row, issued by the reader (row)
//                                                          p2p/{ce|sm}/read/uni/src:col/dst:row/bytes:N
//   device_to_device_bidirectional_memcpy_{read,write}_{ce,sm}: the "total" matrix
//                                                          p2p/{ce|sm}/{read|write}/bi/src:row/dst:col/bytes:N
//   device_local_copy                                      p2p/ce/local/gpu:G/bytes:N
// clang-format on
// Other testcases (latency, all-to-host, one-to-all, SM split-warp bidirectional, multinode) are
// listed as not imported. One file is one launch: one figure per key, repetitions = 1.
#include <cstdint>
#include <vector>

#include "harness/import/imported_nccl_run.hpp"
#include "harness/import/nvbandwidth_json.hpp"

namespace fabricgate::import {

// buffer_bytes: nvbandwidth's -b (MiB) in bytes; its JSON does not record it.
ImportResult build_nvbandwidth_run(const std::vector<NvbandwidthOutput>& launches,
                                   const std::vector<SourceFile>& files, std::uint64_t buffer_bytes,
                                   const ImportContext& ctx);

}  // namespace fabricgate::import
