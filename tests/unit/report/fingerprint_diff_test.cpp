// What changed between two runs' fingerprint facts: flattened paths, added and removed values.
#include <gtest/gtest.h>

#include "harness/report/fingerprint_diff.hpp"

namespace fabricgate::report {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using nlohmann::json;

TEST(FingerprintDiff, NamesChangedAddedAndRemovedFacts) {
  const json before = {{"versions", {{"nccl", "2.28.3"}, {"driver", "580.95"}}},
                       {"env", {{"NCCL_IB_HCA", "mlx5_0"}}},
                       {"nodes", {{"nics", "mlx5_0,mlx5_1"}}},
                       {"identity", {{"gpu_count", 8}}}};
  json after = before;
  after["versions"]["nccl"] = "2.28.9";
  after["env"].erase("NCCL_IB_HCA");
  after["env"]["NCCL_PROTO"] = "LL128";
  after["identity"]["gpu_count"] = 7;
  const auto changes = fingerprint_diff(before, after);
  ASSERT_EQ(changes.size(), 4u);
  EXPECT_EQ(render_fact_changes(changes),
            "env/NCCL_IB_HCA mlx5_0 -> (unset); env/NCCL_PROTO (unset) -> LL128; "
            "identity/gpu_count 8 -> 7; "
            "versions/nccl 2.28.3 -> 2.28.9");
  EXPECT_TRUE(fingerprint_diff(before, before).empty());
  EXPECT_TRUE(fingerprint_diff(json(), after).empty());  // one side unknown: nothing to compare
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::report
