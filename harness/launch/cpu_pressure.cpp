#include "harness/launch/cpu_pressure.hpp"

#include <algorithm>
#include <sstream>

#include "harness/fingerprint/text_files.hpp"

namespace fabricgate::launch {

namespace {

std::optional<double> read_total_us(const std::string& file) {
  const std::optional<std::string> text = fingerprint::read_text(file);
  return text ? parse_cpu_pressure_total_us(*text) : std::nullopt;
}

}  // namespace

std::optional<double> parse_cpu_pressure_total_us(const std::string& text) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("some ", 0) != 0) continue;
    const auto at = line.find(" total=");
    if (at == std::string::npos) return std::nullopt;
    try {
      std::size_t used = 0;
      const double total = std::stod(line.substr(at + 7), &used);
      return used > 0 && total >= 0 ? std::optional<double>(total) : std::nullopt;
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  return std::nullopt;
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
