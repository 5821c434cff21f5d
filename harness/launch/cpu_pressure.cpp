#include "harness/launch/cpu_pressure.hpp"

#include <algorithm>
#include <map>

#include "harness/counters/psi_counters.hpp"
#include "harness/fingerprint/text_files.hpp"

namespace fabricgate::launch {

namespace {

std::optional<double> read_total_us(const std::string& file) {
  const std::optional<std::string> text = fingerprint::read_text(file);
  return text ? parse_cpu_pressure_total_us(*text) : std::nullopt;
}

}  // namespace

// One PSI parser for the launch window and the runner counters (harness/counters/psi_counters).
std::optional<double> parse_cpu_pressure_total_us(const std::string& text) {
  const std::map<std::string, std::uint64_t> totals = counters::parse_psi_totals(text);
  const auto some = totals.find("some");
  if (some == totals.end()) return std::nullopt;
  return static_cast<double>(some->second);
}

CpuPressureWindow::CpuPressureWindow(std::string file)
    : file_(std::move(file)),
      start_us_(read_total_us(file_)),
      start_(std::chrono::steady_clock::now()) {}

std::optional<double> CpuPressureWindow::share() const {
  const std::optional<double> now_us = read_total_us(file_);
  const double wall_us =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start_).count();
  if (!start_us_ || !now_us || *now_us < *start_us_ || wall_us <= 0) return std::nullopt;
  return std::clamp((*now_us - *start_us_) / wall_us, 0.0, 1.0);
}

}  // namespace fabricgate::launch
