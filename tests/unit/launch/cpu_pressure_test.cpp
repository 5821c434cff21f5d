// /proc/pressure/cpu read as the share of a launch during which a task waited for a CPU.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "harness/launch/cpu_pressure.hpp"

namespace fabricgate::launch {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

TEST(launch_CpuPressure, ParsesTheSomeTotal) {
  EXPECT_EQ(parse_cpu_pressure_total_us("some avg10=2.59 avg60=2.87 avg300=3.47 total=11843957665\n"
                                        "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"),
            11843957665.0);
  EXPECT_FALSE(parse_cpu_pressure_total_us("full avg10=0.00 total=5\n"));
  EXPECT_FALSE(parse_cpu_pressure_total_us("some avg10=1.00\n"));
  EXPECT_FALSE(parse_cpu_pressure_total_us("some avg10=1.00 total=x\n"));
  EXPECT_FALSE(parse_cpu_pressure_total_us(""));
}

TEST(launch_CpuPressure, ShareIsStalledTimeOverWallTime) {
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("fg-psi-" + std::to_string(::getpid()));
  std::ofstream(file) << "some avg10=0.00 avg60=0.00 avg300=0.00 total=1000000\n";
  const CpuPressureWindow window(file.string());
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  // 100 ms stalled during at least 200 ms of wall time: at most 0.5.
  std::ofstream(file) << "some avg10=0.00 avg60=0.00 avg300=0.00 total=1100000\n";
  const auto share = window.share();
  ASSERT_TRUE(share);
  EXPECT_LE(*share, 0.5);
  EXPECT_GT(*share, 0.1);  // unless this process slept far beyond its 200 ms
  std::filesystem::remove(file);
  EXPECT_FALSE(window.share());  // the file is gone: no figure, not zero
  EXPECT_FALSE(CpuPressureWindow(file.string()).share());
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::launch
