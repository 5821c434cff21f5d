// Platform key derivation (GPU and CPU-only machines) and --platform override validation.
#include "harness/fingerprint/platform_key.hpp"

#include <gtest/gtest.h>

#include "core/errors.hpp"
#include "gpu_inventories.hpp"
#include "harness/fingerprint/fingerprint.hpp"
#include "harness/fingerprint/gpu_topology.hpp"

namespace fabricgate::fingerprint {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

PlatformFacts facts_of(const GpuInventory& inv) {
  const auto topology = derive_topology(inv);
  return PlatformFacts{inv.devices.empty() ? "" : inv.devices.front().name,
                       static_cast<unsigned>(inv.devices.size()),
                       topology.any_active_nvlink,
                       topology.min_pair_nvlinks,
                       "AMD EPYC 9B14 96-Core Processor",
                       2};
}

TEST(fingerprint_platform_key, GpuMachines) {
  EXPECT_EQ(derive_platform_key(facts_of(testing::h200_x2())), "h200-sxm-x2-nv18");
  EXPECT_EQ(derive_platform_key(facts_of(testing::h100_x8())), "h100-80gb-hbm3-sxm-x8-nv18");
  EXPECT_EQ(derive_platform_key(facts_of(testing::pcie_pair())), "l40s-x2-pcie");
  // One GPU of an NVSwitch board: NVLinks active, no pair to count.
  EXPECT_EQ(derive_platform_key(facts_of(testing::machine(1, "NVIDIA H200", 18, -1))),
            "h200-sxm-x1");
}

TEST(fingerprint_platform_key, NameThatAlreadySaysFormFactorGetsNoSxm) {
  PlatformFacts facts{"NVIDIA A100-SXM4-80GB", 8, true, 12, "", 0};
  EXPECT_EQ(derive_platform_key(facts), "a100-sxm4-80gb-x8-nv12");
  facts.gpu_model = "NVIDIA H100 NVL";
  facts.gpu_count = 2;
  EXPECT_EQ(derive_platform_key(facts), "h100-nvl-x2-nv12");
}

TEST(fingerprint_platform_key, CpuOnlyMachinesAreShortAndStable) {
  PlatformFacts facts{"", 0, false, 0, "AMD EPYC 9B14 96-Core Processor", 2};
  EXPECT_EQ(derive_platform_key(facts), "cpu-amd-epyc-9b14-c2");
  facts.cpu_model = "Intel(R) Xeon(R) Processor";
  EXPECT_EQ(derive_platform_key(facts), "cpu-intel-xeon-c2");
  facts.cpu_model = "Intel(R) Xeon(R) Platinum 8480+ CPU @ 2.00GHz";
  facts.logical_cores = 224;
  EXPECT_EQ(derive_platform_key(facts), "cpu-intel-xeon-platinum-8480-c224");
  facts.cpu_model = "AMD Ryzen 9 7950X 16-Core Processor with Radeon Graphics";
  facts.logical_cores = 32;
  EXPECT_EQ(derive_platform_key(facts), "cpu-amd-ryzen-9-7950x-c32");
  facts.cpu_model = "";
  EXPECT_EQ(derive_platform_key(facts), "cpu-unknown-c32");
  EXPECT_LE(cpu_model_slug(std::string(200, 'a')).size(), 40U);
  // A megabyte tail after '@' (an imported fingerprint): bounded, no stack overflow.
  EXPECT_EQ(cpu_model_slug("Intel(R) Xeon(R) Gold 6430 @ " + std::string(1 << 20, 'x')),
            "intel-xeon-gold-6430");
}

TEST(fingerprint_platform_key, DerivedKeysAreSafeNames) {
  for (const auto& inv : {testing::h200_x2(), testing::h100_x8(), testing::pcie_pair()}) {
    EXPECT_TRUE(is_safe_name(derive_platform_key(facts_of(inv))));
  }
  EXPECT_EQ(slug("  NVIDIA  H200 (SXM) "), "nvidia-h200-sxm");
}

TEST(fingerprint_platform_key, OverrideValidationNamesTheField) {
  EXPECT_NO_THROW(validate_platform_key("h200-lab.1_b", "command line", "--platform"));
  for (const char* bad : {"../x", "a/b", "", ".hidden", "a b", "x;rm"}) {
    try {
      validate_platform_key(bad, "command line", "--platform");
      ADD_FAILURE() << "accepted " << bad;
    } catch (const InputError& e) {
      EXPECT_EQ(e.field(), "--platform");
      EXPECT_NE(std::string(e.what()).find("--platform"), std::string::npos);
    }
  }
}

TEST(fingerprint_platform_key, CollectRejectsUnsafeOverrideAndUsesSafeOne) {
  const RecordedGpuQuery gpus(testing::h200_x2());
  CollectOptions options;
  options.gpu_query = &gpus;
  options.environment = std::vector<std::string>{};
  options.fi_info_program = "";
  options.probe_libraries = false;
  options.platform_override = "../escape";
  EXPECT_THROW(collect(options), InputError);
  options.platform_override = "lab-h200";
  const json doc = collect(options);
  EXPECT_EQ(doc["platform_key"], "lab-h200");
  EXPECT_EQ(doc["platform_key_source"], "override");
  EXPECT_EQ(doc["platform_key_derived"], "h200-sxm-x2-nv18");
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::fingerprint
