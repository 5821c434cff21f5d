// Suite advice: valid suites that will measure less well than they could get a warning.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/suite.hpp"

#ifndef FABRICGATE_SOURCE_DIR
#define FABRICGATE_SOURCE_DIR "."
#endif

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;

// Loads the suite through the real loader, so the advice sees what a launch sees.
std::vector<std::string> advice_for(json benchmarks) {
  for (json& b : benchmarks) {
    if (!b.contains("sizes")) b["sizes"] = {{"list", {8u}}};  // required; not what advice reads
  }
  const json doc = {{"schema", "fabricgate.suite/1"}, {"name", "s"}, {"benchmarks", benchmarks}};
  const fs::path p =
      fs::temp_directory_path() / ("fg-advice-" + std::to_string(::getpid()) + ".json");
  std::ofstream(p) << doc.dump();
  const Suite suite = load_suite(p);
  fs::remove(p);
  return suite_advice(suite);
}

const json kNcclColl = {{"family", "coll"}, {"backend", "nccl"}, {"ops", {"all_gather"}}};
const json kMpiColl = {{"family", "coll"}, {"backend", "mpi"}};
const json kP2p = {{"family", "p2p"}, {"ops", {"copy"}}};
const json kDevcopy = {{"family", "devcopy"}, {"directions", {"h2d"}}};

TEST(model_SuiteAdvice, NcclBesideGpuCopyFixturesIsWarnedNamingTheEntries) {
  const auto advice = advice_for(json::array({kP2p, kNcclColl, kMpiColl, kDevcopy}));
  ASSERT_EQ(advice.size(), 1u);
  EXPECT_NE(advice[0].find("suite s runs GPU copy fixtures (/benchmarks/0, /benchmarks/3)"),
            std::string::npos)
      << advice[0];
  EXPECT_NE(advice[0].find("NCCL benchmarks (/benchmarks/1)"), std::string::npos) << advice[0];
  EXPECT_NE(advice[0].find("all_gather/reduce_scatter"), std::string::npos) << advice[0];
}

TEST(model_SuiteAdvice, NcclNodePairsCountAsNccl) {
  const json pairs = {{"family", "nodepairs"}, {"backend", "nccl"}};
  EXPECT_EQ(advice_for(json::array({pairs, kDevcopy})).size(), 1u);
  const json mpi_pairs = {{"family", "nodepairs"}, {"backend", "mpi"}};
  EXPECT_TRUE(advice_for(json::array({mpi_pairs, kDevcopy})).empty());
}

TEST(model_SuiteAdvice, SeparateOrKernelFreeCompositionsGetNone) {
  EXPECT_TRUE(advice_for(json::array({kNcclColl})).empty());
  EXPECT_TRUE(advice_for(json::array({kP2p, kDevcopy})).empty());
  EXPECT_TRUE(
      advice_for(json::array({kMpiColl, kP2p})).empty());  // MPI on host memory runs no kernel
}

// The suites we ship follow our own advice.
TEST(model_SuiteAdvice, NoBuiltInSuiteIsWarnedAbout) {
  for (const auto& e : fs::directory_iterator(fs::path(FABRICGATE_SOURCE_DIR) / "suites")) {
    EXPECT_TRUE(suite_advice(load_suite(e.path())).empty()) << e.path();
  }
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
