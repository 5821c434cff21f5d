// Baselines keyed by platform and suite: the per-suite file wins, the older per-platform file is
// still read (and said), a suite given as a path keys nothing; output paths in a directory that
// does not exist yet are accepted (it is created on write).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/errors.hpp"
#include "harness/model/baseline_location.hpp"
#include "harness/model/output_paths.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;

class model_BaselineLocation : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("fg-baseline-location-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void touch(const fs::path& p) {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << "{}";
  }
  fs::path dir_;
};

TEST_F(model_BaselineLocation, NothingThereNamesThePerSuiteFileForANewBaseline) {
  const BaselineLocation w = locate_baseline(dir_, "cpu-x", "quick");
  EXPECT_FALSE(w.exists);
  EXPECT_EQ(w.path, dir_ / "cpu-x" / "quick.json");
  EXPECT_EQ(describe_baseline_location(w), "");
}

TEST_F(model_BaselineLocation, TheOlderPerPlatformFileIsReadAndSaid) {
  touch(dir_ / "cpu-x.json");
  const BaselineLocation w = locate_baseline(dir_, "cpu-x", "quick");
  EXPECT_TRUE(w.exists);
  EXPECT_TRUE(w.platform_fallback);
  EXPECT_EQ(w.path, dir_ / "cpu-x.json");
  const std::string said = describe_baseline_location(w);
  EXPECT_NE(said.find((dir_ / "cpu-x.json").string()), std::string::npos) << said;
  EXPECT_NE(said.find((dir_ / "cpu-x" / "quick.json").string() + " does not exist"),
            std::string::npos)
      << said;
}

TEST_F(model_BaselineLocation, ThePerSuiteFileWinsAndSuitesDoNotCollide) {
  touch(dir_ / "cpu-x.json");
  touch(dir_ / "cpu-x" / "quick.json");
  touch(dir_ / "cpu-x" / "cpu.json");
  EXPECT_EQ(locate_baseline(dir_, "cpu-x", "quick").path, dir_ / "cpu-x" / "quick.json");
  EXPECT_EQ(locate_baseline(dir_, "cpu-x", "cpu").path, dir_ / "cpu-x" / "cpu.json");
  EXPECT_FALSE(locate_baseline(dir_, "cpu-x", "cpu").platform_fallback);
  EXPECT_EQ(describe_baseline_location(locate_baseline(dir_, "cpu-x", "cpu")), "");
  // Another suite of the platform still falls back to the per-platform file.
  EXPECT_EQ(locate_baseline(dir_, "cpu-x", "nightly").path, dir_ / "cpu-x.json");
}

TEST_F(model_BaselineLocation, ScenarioVariantsFollowTheSameOrder) {
  EXPECT_EQ(locate_baseline(dir_, "cpu-x", "cpu", "nic-path").path,
            dir_ / "cpu-x" / "cpu--nic-path.json");
  touch(dir_ / "cpu-x--nic-path.json");
  EXPECT_EQ(locate_baseline(dir_, "cpu-x", "cpu", "nic-path").path, dir_ / "cpu-x--nic-path.json");
}

TEST_F(model_BaselineLocation, ASuiteGivenAsAPathKeysNothing) {
  EXPECT_EQ(suite_baseline_path(dir_, "cpu-x", "../etc/passwd"), fs::path());
  EXPECT_EQ(suite_baseline_path(dir_, "cpu-x", ""), fs::path());
  EXPECT_EQ(locate_baseline(dir_, "cpu-x", "suites/cpu.json").path, dir_ / "cpu-x.json");
}

TEST_F(model_BaselineLocation, AMissingRelativeDirectoryIsNotCalledUnwritable) {
  const fs::path before = fs::current_path();
  fs::current_path(dir_);
  EXPECT_NO_THROW(require_writable_file("new-dir/cpu-x/quick.json", "--out"));
  EXPECT_NO_THROW(require_writable_file("new-dir/quick.json", "--out"));
  fs::current_path(before);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
