#pragma once
// P01 before the launch: when this host's own fingerprint shows fewer GPUs than the NCCL ranks
// that would start on it, two ranks would share a GPU and NCCL would wait forever. The harness
// refuses that within seconds (exit 2) instead of launching; the bench checks the same from its
// gathered rank table (bench/engine/rank_gpu_check.hpp) for launches the harness cannot see into
// (hostfiles, srun).
#include <map>
#include <string>

#include "core/json_file.hpp"
#include "core/suite.hpp"

namespace fabricgate::launch {

struct LocalLaunch {
  int ranks = 0;                     // processes started on this host
  int gpus_per_process = 1;          // the suite's "gpus_per_process"
  std::string cuda_visible_devices;  // the value the ranks will see ("" when unset)
};

// "" when every NCCL rank gets its own GPU (or the suite has no NCCL benchmark, or the host has
// no GPU at all — the bench then skips NCCL); else the refusal naming the GPU two ranks would
// share and how many GPUs the node has. `fingerprint` is fingerprint::collect()'s document.
std::string gpu_shortage(const Suite& suite, const LocalLaunch& launch, const json& fingerprint);

}  // namespace fabricgate::launch
