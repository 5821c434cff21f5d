// .github/workflows/*.yml and action.yml: they parse, and every ci/ script and `fabricgate`
// subcommand they call exists (check_workflows.py, against the built binary's --help).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "tests/integration/bad_inputs/child_process.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;

TEST(workflows_Files, ParseAndCallOnlyWhatExists) {
  const fs::path logs =
      fs::temp_directory_path() / ("workflows-test-" + std::to_string(::getpid()));
  fs::create_directories(logs);
  const testing::ChildResult r = testing::run_child(
      {"/usr/bin/env", "python3", CHECK_WORKFLOWS, FABRICGATE_SOURCE_DIR, FABRICGATE_CLI},
      FABRICGATE_SOURCE_DIR, logs, std::chrono::seconds(120), {});
  fs::remove_all(logs);
  if (r.exit_code == 127) GTEST_SKIP() << "python3 not installed";
  if (r.exit_code == 77) GTEST_SKIP() << r.output;  // PyYAML missing
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("0 problems"), std::string::npos) << r.output;
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
