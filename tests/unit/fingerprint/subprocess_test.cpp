// run_program: argv execution, exit status, output cap and deadline.
#include "harness/fingerprint/subprocess.hpp"

#include <gtest/gtest.h>

namespace fabricgate::fingerprint {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using std::chrono::milliseconds;

TEST(fingerprint_subprocess, CapturesOutputAndExitStatus) {
  // Arguments are passed as-is: no shell expands "$HOME" or splits "a b".
  const auto ok = run_program({"printf", "%s|%s", "$HOME", "a b"}, 1024, milliseconds(10000));
  EXPECT_TRUE(ok.succeeded());
  EXPECT_EQ(ok.out, "$HOME|a b");
  const auto failed = run_program({"false"}, 1024, milliseconds(10000));
  EXPECT_TRUE(failed.started);
  EXPECT_FALSE(failed.succeeded());
  EXPECT_EQ(failed.exit_code, 1);
  EXPECT_NE(failed.failure_text("false").find("exited with status 1"), std::string::npos);
}

TEST(fingerprint_subprocess, MissingProgramIsNotStarted) {
  const auto missing = run_program({"fabricgate-no-such-program"}, 1024, milliseconds(1000));
  EXPECT_FALSE(missing.started);
  EXPECT_FALSE(missing.succeeded());
  EXPECT_NE(missing.failure_text("x").find("could not be started"), std::string::npos);
  EXPECT_FALSE(run_program({}, 1, milliseconds(1)).started);
}

TEST(fingerprint_subprocess, OutputIsCapped) {
  const auto big = run_program({"head", "-c", "1000000", "/dev/zero"}, 1000, milliseconds(10000));
  EXPECT_TRUE(big.succeeded());  // drained to the end, so the child was not blocked
  EXPECT_TRUE(big.truncated);
  EXPECT_EQ(big.out.size(), 1000U);
}

TEST(fingerprint_subprocess, DeadlineKillsAHungProgram) {
  const auto start = std::chrono::steady_clock::now();
  const auto hung = run_program({"sleep", "30"}, 1024, milliseconds(300));
  EXPECT_TRUE(hung.timed_out);
  EXPECT_FALSE(hung.succeeded());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_NE(hung.failure_text("sleep").find("timed out"), std::string::npos);
}

TEST(fingerprint_subprocess, StderrIsSeparate) {
  const auto result = run_program({"ls", "/fabricgate-no-such-dir"}, 1024, milliseconds(10000));
  EXPECT_FALSE(result.succeeded());
  EXPECT_TRUE(result.out.empty());
  EXPECT_FALSE(result.err.empty());
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::fingerprint
