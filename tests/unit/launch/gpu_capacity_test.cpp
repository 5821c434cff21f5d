// The harness refuses P01 before launching when its own fingerprint shows fewer GPUs than the
// NCCL ranks it would start on this host (a one-GPU H200 node with "per-gpu" + min_ranks 2, or
// --ranks 2): fed here with a one-GPU inventory, no GPU needed.
#include "harness/launch/gpu_capacity.hpp"

#include <gtest/gtest.h>

namespace fabricgate::launch {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

Suite suite_of(const std::string& backend) {
  Suite s;
  s.name = "quick";
  s.doc = {{"benchmarks", json::array({{{"family", "coll"}, {"backend", backend}}})}};
  return s;
}

json fingerprint_with_gpus(int n) {
  json devices = json::array();
  for (int i = 0; i < n; ++i)
    devices.push_back({{"index", i}, {"uuid", "GPU-000" + std::to_string(i)}});
  return {{"gpus", {{"available", n > 0}, {"devices", devices}}}, {"identity", {{"gpu_count", n}}}};
}

TEST(GpuCapacity, TwoNcclRanksOnAOneGpuNodeAreRefused) {
  const std::string why = gpu_shortage(suite_of("nccl"), {2, 1, ""}, fingerprint_with_gpus(1));
  EXPECT_NE(why.find("P01"), std::string::npos) << why;
  EXPECT_NE(why.find("GPU-0000"), std::string::npos) << why;
  EXPECT_NE(why.find("which has 1 GPU"), std::string::npos) << why;
  EXPECT_NE(why.find("ranks 0 and 1"), std::string::npos) << why;
}

TEST(GpuCapacity, EnoughGpusOrNoNcclOrNoGpuIsFine) {
  EXPECT_EQ(gpu_shortage(suite_of("nccl"), {2, 1, ""}, fingerprint_with_gpus(2)), "");
  EXPECT_EQ(gpu_shortage(suite_of("mpi"), {2, 1, ""}, fingerprint_with_gpus(1)), "");
  EXPECT_EQ(gpu_shortage(suite_of("nccl"), {2, 1, ""}, fingerprint_with_gpus(0)),
            "");  // the bench skips NCCL
}

TEST(GpuCapacity, CudaVisibleDevicesAndGpusPerProcessCount) {
  EXPECT_NE(
      gpu_shortage(suite_of("nccl"), {2, 1, "3"}, fingerprint_with_gpus(8)).find("which has 1 GPU"),
      std::string::npos);
  EXPECT_EQ(gpu_shortage(suite_of("nccl"), {2, 1, "3,5"}, fingerprint_with_gpus(8)), "");
  EXPECT_NE(
      gpu_shortage(suite_of("nccl"), {2, 2, ""}, fingerprint_with_gpus(2)).find("need 4 GPUs"),
      std::string::npos);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::launch
