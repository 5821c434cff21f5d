// The README's main job on this CPU box ("judge the change, not the runner"): `fabricgate run
// --suite cpu` with the project's committed baselines and a fresh results store, exactly as
// ci/cpu-suite runs it, A/A (nothing changed). The gate may say the runner differs from the fleet
// (exit 3, RUNNER-DIFFERS) or pass (exit 0); it must never blame a change (exit 1). On either CI
// CPU kind a committed baseline exists, so the verdict is a real one, not NO BASELINE. Two runs
// in a row: the second reads the first as this host's history.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "core/json_file.hpp"
#include "mpi_job.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;

TEST(MainJob, AnAaRunOnThisCpuBoxNeverBlamesAChange) {
  const fs::path dir = fs::temp_directory_path() / ("fg-main-job-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path source(FABRICGATE_SOURCE_DIR);
  for (int launch = 1; launch <= 2; ++launch) {
    const testing::JobResult job =
        testing::run_job({FABRICGATE_CLI,    "run",
                          "--suite",         (source / "suites" / "cpu.json").string(),
                          "--baselines-dir", (source / "baselines").string(),
                          "--results-dir",   (dir / "results").string(),
                          "--store",         "sqlite:" + (dir / "store.sqlite").string(),
                          "--lock",          (dir / "lock").string(),
                          "--bench",         FABRICGATE_BENCH,
                          "--confirm-gap",   "5",
                          "--heartbeat",     "0",
                          "--report",        "json"},
                         500);
    ASSERT_NE(job.exit_code, 1) << "launch " << launch << ":\n" << job.output;
    EXPECT_TRUE(job.exit_code == 0 || job.exit_code == 3) << job.output;
    std::error_code ec;
    fs::path run_dir;
    for (const auto& platform : fs::directory_iterator(dir / "results", ec)) {
      if (!platform.is_directory()) continue;
      for (const auto& r : fs::directory_iterator(platform.path(), ec)) {
        if (r.path().filename().string().ends_with("-cpu-default")) run_dir = r.path();
      }
    }
    ASSERT_FALSE(run_dir.empty()) << job.output;
    const json c = load_json_file(run_dir / "comparison.json");
    const std::string platform = c.at("platform").get<std::string>();
    if (platform == "cpu-amd-epyc-c2" || platform == "cpu-intel-xeon-c2") {
      EXPECT_TRUE(c.at("has_baseline").get<bool>()) << platform;
      EXPECT_NE(c.at("change").at("verdict"), "FAIL") << c.at("headline");
    }
    if (job.exit_code == 3 && c.at("has_baseline").get<bool>()) {
      // Not judged here, and said so: a runner outside the fleet, or a busy one.
      const std::string head = c.at("headline").get<std::string>();
      EXPECT_TRUE(head.starts_with("RUNNER DIFFERS") || head.starts_with("RUNNER BUSY") ||
                  head.starts_with("INCOMPLETE"))
          << head;
    }
    fs::rename(run_dir, dir / ("kept-" + std::to_string(launch)), ec);
  }
  fs::remove_all(dir);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
