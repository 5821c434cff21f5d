#pragma once
// P01 before any NCCL call: two ranks of one host on one GPU make NCCL initialisation (or the
// first collective) wait forever, so the bench refuses them from the rank table it has already
// gathered (every rank's host, GPU UUID and visible GPU count) — within seconds, not after a
// hang. Vendor-free: the table comes from the GPU placement (bench/backends/cuda), and tests feed
// a one-GPU inventory directly.
#include <string>

#include <nlohmann/json.hpp>

namespace fabricgate::bench {

struct RankGpuDemand {
  bool has_collectives = false;       // any collective family in the suite
  bool has_gpu_collectives = false;   // any of them on NCCL
  bool has_host_collectives = false;  // any of them on MPI (their ranks are processes)
  int gpus_per_process = 1;
  int processes = 0;  // the launch's process count (communicator size)
};

// "" when the launch is fine; else the P01 refusal. `ranks` holds one object per rank with
// "rank", "host", "gpu_uuid" and "visible_gpus" (bench/main.cpp rank_table).
std::string p01_refusal(const RankGpuDemand& demand, const nlohmann::json& ranks);

}  // namespace fabricgate::bench
