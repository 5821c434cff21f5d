#include "harness/report/mermaid_chart.hpp"

#include <fmt/format.h>

#include "harness/verdict/units_text.hpp"

namespace fabricgate::report {

namespace {

std::string number(double v) { return fmt::format("{:.4g}", v); }

// Mermaid strings are double-quoted and cannot escape a quote: drop quotes and line breaks.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c != '"' && c != '\n' && c != '\r' && c != '`') out += c;
  }
  return out + "\"";
}

}  // namespace

std::string mermaid_rate_chart(const std::string& title,
                               const std::vector<const verdict::KeyComparison*>& keys) {
  if (keys.size() < 2) return "";
  const bool busbw = keys.front()->busbw_now.has_value();
  std::string sizes;
  std::string now;
  std::string base;
  bool has_baseline = true;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const verdict::KeyComparison& k = *keys[i];
    if (i > 0 && keys[i - 1]->bytes == k.bytes) return "";
    const double v = busbw ? k.busbw_now.value_or(0) : k.algbw_now;
    if (!(v > 0)) return "";
    const double b = busbw ? k.busbw_baseline.value_or(0) : k.algbw_baseline;
    has_baseline = has_baseline && b > 0;
    const char* sep = i == 0 ? "" : ", ";
    sizes += sep + quoted(verdict::format_bytes(k.bytes));
    now += sep + number(v);
    base += sep + number(b);
  }
  const std::string metric = busbw ? "busbw" : "algbw";
  std::string out = "```mermaid\nxychart-beta\n  title " +
                    quoted(title + ": " + metric + " GB/s" +
                           (has_baseline ? " (bars baseline, line this run)" : "")) +
                    "\n  x-axis [" + sizes + "]\n  y-axis " + quoted(metric + " (GB/s)") + "\n";
  if (has_baseline) out += "  bar [" + base + "]\n";
  return out + "  line [" + now + "]\n```\n\n";
}

}  // namespace fabricgate::report
