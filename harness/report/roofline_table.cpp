#include "harness/report/roofline_table.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "core/text_escape.hpp"
#include "harness/verdict/units_text.hpp"

namespace fabricgate::report {

namespace {

using roofline::RooflineFinding;

bool has_ceiling(const verdict::KeyComparison& k) {
  return k.roofline && (k.roofline->ceiling_GBps > 0 || k.roofline->dip);
}

struct Row {
  std::string key, size, tier, spec, measured, ceiling, percent, floor, status;
};

Row row_of(const verdict::KeyComparison& k) {
  const RooflineFinding& f = *k.roofline;
  Row r;
  r.key = k.key;
  r.size = verdict::format_bytes(k.bytes);
  if (f.ceiling_GBps > 0) {
    r.tier = f.tier;
    r.spec = fmt::format("{} {}", f.spec,
                         f.direction == roofline::Direction::bidirectional ? "(both ways)" : "");
    r.measured = fmt::format("{:.1f} GB/s {}", f.measured_GBps,
                             f.metric.rfind("per-accelerator", 0) == 0 ? "per-GPU" : f.metric);
    r.ceiling = fmt::format("{:.1f} GB/s", f.ceiling_GBps);
    r.percent = fmt::format("{:.1f} %", 100 * f.fraction);
    r.floor = f.floor ? fmt::format("{:.0f} %", 100 * *f.floor) : "none";
  } else {
    r.tier = "unknown";
  }
  r.status = roofline::status_name(f.status);
  if (f.dip) r.status += std::string(r.status.empty() ? "" : ", ") + "DIP";
  return r;
}

std::string pad(const std::string& s, std::size_t w) {
  return s.size() >= w ? s + " " : s + std::string(w - s.size(), ' ');
}

// How many keys had no known tier, with each distinct reason once.
std::string unknown_summary(const verdict::Comparison& c) {
  std::map<std::string, std::size_t> reasons;
  for (const verdict::KeyComparison& k : c.keys) {
    if (k.roofline && k.roofline->status == roofline::Status::tier_unknown && !k.roofline->dip)
      ++reasons[k.roofline->text];
  }
  std::string out;
  for (const auto& [text, n] : reasons) out += fmt::format("  {} key(s): {}\n", n, text);
  return out;
}

}  // namespace

std::string roofline_console(const verdict::Comparison& c) {
  std::vector<Row> rows;
  std::size_t key_width = 12;
  for (const verdict::KeyComparison& k : c.keys) {
    if (!has_ceiling(k)) continue;
    rows.push_back(row_of(k));
    key_width = std::max(key_width, k.key.size() + 2);
  }
  const std::string unknown = unknown_summary(c);
  if (rows.empty() && unknown.empty()) return "";
  // Nothing had a known tier (a CPU-only run): one line says so instead of a table.
  if (rows.empty())
    return "roofline: no key judged; " + unknown.substr(unknown.find_first_not_of(' '));
  std::string out = "\nroofline (" + c.roofline_policy + "):\n";
  if (!rows.empty()) {
    out += pad("KEY", key_width) + pad("TIER", 19) + pad("SPEC", 28) + pad("MEASURED", 26) +
           pad("CEILING", 13) + pad("% ROOFLINE", 11) + pad("FLOOR", 6) + "STATUS\n";
    for (const Row& r : rows) {
      out += pad(r.key, key_width) + pad(r.tier, 19) + pad(r.spec, 28) + pad(r.measured, 26) +
             pad(r.ceiling, 13) + pad(r.percent, 11) + pad(r.floor, 6) + r.status + "\n";
    }
  }
  if (!unknown.empty()) out += "not judged against a roofline:\n" + unknown;
  return out;
}

std::string roofline_markdown(const verdict::Comparison& c) {
  std::string out;
  for (const verdict::KeyComparison& k : c.keys) {
    if (!has_ceiling(k)) continue;
    const Row r = row_of(k);
    // Tier, spec and policy names come from a policy file: data like the key.
    out += "| " + markdown_code(r.key) + " | " + markdown_cell(r.tier) + " | " +
           markdown_cell(r.spec) + " | " + markdown_cell(r.measured) + " | " +
           markdown_cell(r.ceiling) + " | " + markdown_cell(r.percent) + " | " +
           markdown_cell(r.floor) + " | " + markdown_cell(r.status) + " |\n";
  }
  if (out.empty()) return "";
  return "### % of roofline\n\nPolicy: " + markdown_code(c.roofline_policy) +
         " (docs/ROOFLINE.md)\n\n| key | tier | spec | measured | ceiling | % of roofline | "
         "floor | status |\n|---|---|---|---:|---:|---:|---:|---|\n" +
         out + "\n";
}

std::vector<std::string> first_run_lines(const verdict::Comparison& c) {
  if (c.has_baseline || c.roofline_policy.empty()) return {};
  std::size_t judged = 0;
  std::size_t below = 0;
  std::size_t dips = 0;
  for (const verdict::KeyComparison& k : c.keys) {
    if (!k.roofline) continue;
    judged += k.roofline->floor ? 1 : 0;
    below += k.roofline->status == roofline::Status::below_floor ? 1 : 0;
    dips += k.roofline->dip ? 1 : 0;
  }
  return {fmt::format("Without a baseline this run was still judged: {} key(s) against a roofline "
                      "floor ({} below), the dip check ({} dip(s)), correctness and the PITFALLS "
                      "checks.",
                      judged, below, dips),
          "Regressions against this platform's own past need a baseline from runs of at least 3 "
          "separate sessions or machines (one session under-states the noise):",
          "  fabricgate run --suite <suite>   # once in each of three sessions",
          "  " + c.create_baseline_command};
}

}  // namespace fabricgate::report
