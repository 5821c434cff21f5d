#pragma once
// How busy the launching host was during a launch, from the kernel's pressure stall information
// (/proc/pressure/cpu, Linux >= 4.20 with PSI on): the share of wall time during which at least
// one runnable task waited for a CPU ("some"). A launch on a 2-core runner that builds in the
// background measures the build, not the fabric (harness/gate/README.md, "A busy runner").
#include <chrono>
#include <optional>
#include <string>

namespace fabricgate::launch {

// The "some total=" counter (microseconds stalled) of a /proc/pressure/cpu text; nullopt when the
// text has none.
std::optional<double> parse_cpu_pressure_total_us(const std::string& text);

// Started at construction; share() reads the counter again: stalled time / wall time, in [0, 1];
// nullopt where the kernel has no PSI (or it is off).
class CpuPressureWindow {
 public:
  explicit CpuPressureWindow(std::string file = "/proc/pressure/cpu");
  std::optional<double> share() const;

 private:
  std::string file_;
  std::optional<double> start_us_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace fabricgate::launch
