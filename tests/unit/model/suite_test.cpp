// Suite files: the fields fabricgate launches from are validated before anything runs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/errors.hpp"
#include "core/suite.hpp"

#ifndef FABRICGATE_SOURCE_DIR
#define FABRICGATE_SOURCE_DIR "."
#endif

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;

std::string load_error(const json& doc) {
  const fs::path p =
      fs::temp_directory_path() / ("fg-suite-" + std::to_string(::getpid()) + ".json");
  std::ofstream(p) << doc.dump();
  std::string what;
  try {
    load_suite(p);
  } catch (const InputError& e) {
    what = e.what();
  }
  fs::remove(p);
  return what;
}

json minimal() {
  return {{"schema", "fabricgate.suite/1"},
          {"name", "s"},
          {"benchmarks", {{{"family", "coll"}, {"backend", "mpi"}, {"sizes", {{"list", {8u}}}}}}}};
}

TEST(model_Suite, EveryBuiltInSuiteLoads) {
  for (const auto& e : fs::directory_iterator(fs::path(FABRICGATE_SOURCE_DIR) / "suites")) {
    EXPECT_NO_THROW(load_suite(e.path())) << e.path();
  }
}

TEST(model_Suite, RejectsShellSyntaxInEnvironment) {
  for (const char* value : {"$(reboot)", "a;b", "`id`", "x|y", "a&&b", "x\ny", "'q'"}) {
    json d = minimal();
    d["env"] = {{"NCCL_DEBUG", value}};
    EXPECT_NE(load_error(d).find("field /env/NCCL_DEBUG"), std::string::npos) << value;
  }
  json d = minimal();
  d["env"] = {{"LD_PRELOAD; x", "1"}};
  EXPECT_NE(load_error(d).find("environment variable name"), std::string::npos);
  d["env"] = {{"NCCL_IB_HCA", "mlx5_0:1,mlx5_1:1"}};
  EXPECT_EQ(load_error(d), "");
}

TEST(model_Suite, RanksAndNamesAreValidated) {
  json d = minimal();
  d["ranks"] = 0;
  EXPECT_NE(load_error(d).find("field /ranks"), std::string::npos);
  d["ranks"] = "per-gpu";
  EXPECT_EQ(load_error(d), "");
  d["name"] = "../escape";
  EXPECT_NE(load_error(d).find("field /name"), std::string::npos);
  d = minimal();
  d["benchmarks"] = json::array();
  EXPECT_NE(load_error(d).find("field /benchmarks"), std::string::npos);
  d = minimal();
  d["schema"] = "fabricgate.suite/9";
  EXPECT_NE(load_error(d).find("field /schema"), std::string::npos);
}

TEST(model_Suite, ResolvesByNameOrPath) {
  const std::vector<fs::path> dirs{fs::path(FABRICGATE_SOURCE_DIR) / "suites"};
  EXPECT_EQ(resolve_suite("quick", dirs).filename(), "quick.json");
  EXPECT_THROW(resolve_suite("no-such-suite", dirs), InputError);
  EXPECT_THROW(resolve_suite("../../no/such/suite.json", dirs), InputError);
  EXPECT_THROW(resolve_suite("bad name;x", dirs), InputError);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
