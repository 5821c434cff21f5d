// P01 refusal from the gathered rank table: a one-GPU node with two ranks must be refused, naming
// the shared GPU and how many GPUs the node has, before any NCCL call could hang.
#include "bench/engine/rank_gpu_check.hpp"

#include <gtest/gtest.h>

namespace fabricgate::bench {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using nlohmann::json;

json rank(int r, const std::string& host, const std::string& uuid, int visible) {
  return {{"rank", r}, {"host", host}, {"gpu_uuid", uuid}, {"visible_gpus", visible}};
}

RankGpuDemand nccl_suite(int processes) { return {true, true, false, 1, processes}; }

TEST(RankGpuCheck, TwoRanksOnTheOnlyGpuAreRefusedNamingItAndTheCount) {
  const json one_gpu_node =
      json::array({rank(0, "h200-a", "GPU-1111", 1), rank(1, "h200-a", "GPU-1111", 1)});
  const std::string why = p01_refusal(nccl_suite(2), one_gpu_node);
  EXPECT_NE(why.find("P01"), std::string::npos) << why;
  EXPECT_NE(why.find("GPU-1111"), std::string::npos) << why;
  EXPECT_NE(why.find("ranks 0 and 1"), std::string::npos) << why;
  EXPECT_NE(why.find("has 1 GPU for 2 ranks"), std::string::npos) << why;
}

TEST(RankGpuCheck, OneRankPerGpuIsAccepted) {
  const json two_gpus = json::array({rank(0, "a", "GPU-1", 2), rank(1, "a", "GPU-2", 2)});
  EXPECT_EQ(p01_refusal(nccl_suite(2), two_gpus), "");
}

TEST(RankGpuCheck, TheSameUuidOnTwoHostsIsTwoGpus) {
  // UUIDs are unique per device, but emulated or cloned hosts may repeat them: per host only.
  const json two_hosts = json::array({rank(0, "a", "GPU-1", 1), rank(1, "b", "GPU-1", 1)});
  EXPECT_EQ(p01_refusal(nccl_suite(2), two_hosts), "");
}

TEST(RankGpuCheck, HostCollectivesMayShareAGpuButNeedTwoRanks) {
  const json one_gpu = json::array({rank(0, "a", "GPU-1", 1), rank(1, "a", "GPU-1", 1)});
  EXPECT_EQ(p01_refusal({true, false, true, 1, 2}, one_gpu), "");
  EXPECT_NE(p01_refusal({true, false, true, 1, 1}, json::array({rank(0, "a", "GPU-1", 1)}))
                .find("at least 2 ranks"),
            std::string::npos);
}

TEST(RankGpuCheck, NoCollectivesNoCheck) {
  EXPECT_EQ(p01_refusal({false, false, false, 1, 1}, json::array()), "");
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::bench
