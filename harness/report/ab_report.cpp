#include "harness/report/ab_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/text_escape.hpp"
#include "harness/report/fingerprint_changes_report.hpp"
#include "harness/verdict/units_text.hpp"

namespace fabricgate::report {

namespace {

// Console rows beyond this many passing keys are summarised (failing ones are always listed).
constexpr std::size_t kMaxQuietRows = 200;

std::string padded(const std::string& text, std::size_t width) {
  return text.size() >= width ? text + " " : text + std::string(width - text.size(), ' ');
}

bool judged(const ab::AbKey& k) { return k.samples_a > 0 && k.samples_b > 0; }

const char* short_metric(verdict::Metric m) {
  switch (m) {
    case verdict::Metric::time_us: return "time";
    case verdict::Metric::algbw_GBps: return "algbw";
    case verdict::Metric::busbw_GBps: return "busbw";
  }
  return "";
}

std::string figure(double v, verdict::Metric m) {
  return verdict::format_metric(v, m == verdict::Metric::time_us);
}

std::string interval_text(const ab::AbInterval& i) {
  if (i.bounded) return fmt::format("{:.3f} [{:.3f}, {:.3f}]", i.estimate, i.low, i.high);
  return fmt::format("{:.3f} [unbounded]", i.estimate);
}

std::string changes_text(const std::vector<verdict::Change>& changes) {
  std::string out;
  for (const verdict::Change& c : changes)
    out += (out.empty() ? "" : "; ") + c.what + " " + c.before + " -> " + c.after;
  return out;
}

std::string side_text(const ab::AbSide& s) {
  std::string items;
  for (const std::string& i : ab::recordable_items(s)) items += (items.empty() ? "" : " ") + i;
  return s.label + " (" + (items.empty() ? "the machine as is" : items) + ")";
}

const char* colour_of(ab::AbVerdict v) {
  if (ab::ab_verdict_fails(v)) return "\033[1;31m";
  if (ab::ab_verdict_open(v)) return "\033[33m";
  if (v == ab::AbVerdict::improvement) return "\033[32m";
  return "";
}

std::string pairs_text(const ab::AbComparison& c) {
  const std::string most = c.min_pairs > 0 && c.min_pairs < c.pairs_requested
                               ? "at most " + std::to_string(c.pairs_requested)
                               : std::to_string(c.pairs_requested);
  return std::to_string(c.pairs_compared.size()) + " of " + most + " pairs";
}

std::string design_text(const ab::AbComparison& c) {
  if (c.min_pairs <= 0) return {};
  if (c.min_pairs == c.pairs_requested) {
    return fmt::format("fixed design: {} pairs, one look at {:.1f}%", c.pairs_requested,
                       c.look_confidence * 100);
  }
  return fmt::format(
      "sequential design: looks after pairs {}..{}, each interval at {:.2f}% ({:.0f}% split over "
      "{} looks)",
      c.min_pairs, c.pairs_requested, c.look_confidence * 100, c.confidence * 100,
      c.pairs_requested - c.min_pairs + 1);
}

// Skipped keys are one line per reason, not one per key.
std::string skipped_groups(const ab::AbComparison& c) {
  std::map<std::string, std::size_t> by_reason;
  for (const ab::AbKey& k : c.keys) {
    if (k.verdict == ab::AbVerdict::skipped) ++by_reason[k.reason];
  }
  std::string out;
  for (const auto& [reason, n] : by_reason)
    out += fmt::format("SKIPPED     {} key{}: {}\n", n, n == 1 ? "" : "s", reason);
  return out;
}

}  // namespace

std::string render_ab_console(const ab::AbComparison& c, bool color) {
  std::string out = "fabricgate " + c.command + ": suite " + c.suite + " on " + c.platform + ", " +
                    side_text(c.a) + " vs " + side_text(c.b) + ", " + pairs_text(c) + "\n";
  const bool failed = c.exit_code != ExitCode::pass;
  out += std::string(color ? (failed ? "\033[1;31m" : "\033[1;32m") : "") + c.headline() +
         (color ? "\033[0m" : "") + "\n";
  if (c.side_changes.empty()) out += "changed A -> B: nothing\n";
  for (const verdict::Change& ch : c.side_changes)
    out += "changed A -> B: " + ch.what + " " + ch.before + " -> " + ch.after + "\n";
  out += fingerprint_changes_console({c.fingerprint_changes, c.fingerprint_note, "A", "B"});
  out +=
      fmt::format("{:.0f}% intervals (Hodges-Lehmann, distribution-free); ", c.confidence * 100) +
      c.tolerance_source + "\n";
  if (const std::string d = design_text(c); !d.empty()) out += d + "\n";
  for (const std::string& w : c.warnings) out += "warning: " + w + "\n";
  if (!c.directory.empty()) out += "results: " + c.directory + "\n";
  if (c.keys.empty()) return out;

  std::size_t key_width = 20;
  for (const ab::AbKey& k : c.keys) key_width = std::max(key_width, k.key.size() + 2);
  key_width = std::min<std::size_t>(key_width, 72);
  out += "\n" + padded("VERDICT", 12) + padded("KEY", key_width) + padded("SIZE", 9) +
         padded("METRIC", 7) + padded("A", 14) + padded("B", 14) + padded("B/A [interval]", 26) +
         padded("CHANGE", 9) + "PAIRS\n";
  std::size_t quiet_rows = 0;
  std::size_t hidden = 0;
  for (const ab::AbKey& k : c.keys) {
    if (k.verdict == ab::AbVerdict::skipped) continue;  // grouped by reason below
    const bool quiet = k.verdict == ab::AbVerdict::pass;
    if (quiet && ++quiet_rows > kMaxQuietRows) {
      ++hidden;
      continue;
    }
    const char* on = color ? colour_of(k.verdict) : "";
    const char* off = color && *on ? "\033[0m" : "";
    out += std::string(on) + padded(ab::ab_verdict_name(k.verdict), 12) + off +
           padded(k.key, key_width) + padded(verdict::format_bytes(k.bytes), 9);
    if (judged(k)) {
      out += padded(short_metric(k.metric), 7) + padded(figure(k.median_a, k.metric), 14) +
             padded(figure(k.median_b, k.metric), 14) + padded(interval_text(k.ratio), 26) +
             padded(verdict::format_percent(k.performance.estimate - 1), 9) +
             (k.pairs_needed > 0 ? std::to_string(k.pairs_needed) : "-");
    }
    out += "\n";
    if (!quiet) out += "    " + k.reason + "\n";
    if (!quiet && !k.stop_reason.empty()) out += "    " + k.stop_reason + "\n";
    if (!k.route_changes.empty())
      out += "    route A -> B: " + changes_text(k.route_changes) + "\n";
    for (const std::string& n : k.notes) out += "    note: " + n + "\n";
  }
  if (hidden > 0) out += "(" + std::to_string(hidden) + " passing keys not listed; see ab.json)\n";
  out += skipped_groups(c);
  // The verdict last, where a person reads first when the log ends.
  out += "\n" + std::string(color ? (failed ? "\033[1;31m" : "\033[1;32m") : "") + c.headline() +
         (color ? "\033[0m" : "") + "\n";
  if (!c.stop_reason.empty()) out += "stopped: " + c.stop_reason + "\n";
  return out;
}

std::string render_ab_markdown(const ab::AbComparison& c) {
  const auto code = [](const std::string& s) { return markdown_code(s); };
  std::string out = "## fabricgate " + std::string(c.command == "ab" ? "A/B" : c.command) + " " +
                    std::string(c.exit_code == ExitCode::pass ? ":white_check_mark:" : ":x:") +
                    " " + markdown_cell(c.headline()) + "\n\n";
  out += "Suite " + code(c.suite) + " on " + code(c.platform) + ": **" +
         markdown_cell(side_text(c.a)) + "** vs **" + markdown_cell(side_text(c.b)) +
         "**, launched interleaved (A B A B ...), " + pairs_text(c) + " compared" +
         (c.directory.empty() ? "" : "; results in " + code(c.directory)) + ".\n\n";
  if (!c.complete) out += "> [!CAUTION]\n> " + markdown_cell(c.incomplete_reason) + "\n\n";
  for (const std::string& w : c.warnings) out += "> [!WARNING]\n> " + markdown_cell(w) + "\n\n";
  out += "### What changed (A → B)\n\n";
  if (c.side_changes.empty()) {
    out += "Nothing: same variables and libraries.\n\n";
  } else {
    out += "| | A | B |\n|---|---|---|\n";
    for (const verdict::Change& ch : c.side_changes) {
      out +=
          "| " + markdown_cell(ch.what) + " | " + code(ch.before) + " | " + code(ch.after) + " |\n";
    }
    out += "\n";
  }
  out += fingerprint_changes_markdown(
      {c.fingerprint_changes, c.fingerprint_note, "A", "B", "Fingerprint difference (A → B)"});
  out +=
      "### Keys\n\n| verdict | key | size | metric | A | B | B/A [interval] | change (+ = B "
      "better) | tolerance | pairs | route A → B |\n"
      "|---|---|---:|---|---:|---:|---|---:|---:|---:|---|\n";
  for (const ab::AbKey& k : c.keys) {
    const bool fails = ab::ab_verdict_fails(k.verdict);
    std::string verdict = ab::ab_verdict_name(k.verdict);
    if (fails) verdict = "**" + verdict + "**";
    out += "| " + verdict + " | " + code(k.key) + " | " + verdict::format_bytes(k.bytes) + " | ";
    if (judged(k)) {
      out += std::string(short_metric(k.metric)) + " | " + figure(k.median_a, k.metric) + " | " +
             figure(k.median_b, k.metric) + " | " + interval_text(k.ratio) + " | " +
             verdict::format_percent(k.performance.estimate - 1) + " | " +
             verdict::format_percent(k.tolerance).substr(1) + " | " +
             (k.pairs_needed > 0 ? std::to_string(k.pairs_needed) : "") + " | ";
    } else {
      out += " | | | " + markdown_cell(k.reason) + " | | | | ";
    }
    std::string route = changes_text(k.route_changes);
    for (const std::string& n : k.notes) route += (route.empty() ? "" : "; ") + n;
    if (ab::ab_verdict_open(k.verdict) || k.verdict == ab::AbVerdict::bimodal)
      route += (route.empty() ? "" : "; ") + k.reason;
    out += markdown_cell(route) + " |\n";
  }
  out += fmt::format(
             "\n<sub>Per key, every repetition of every compared pair is pooled per side; B/A is "
             "the Hodges-Lehmann ratio with its {:.0f}% distribution-free interval. A key fails "
             "when the whole interval is worse than 1 − tolerance and passes only when the whole "
             "interval lies above it; otherwise it is UNDECIDED, never a pass. ",
             c.confidence * 100) +
         markdown_cell(c.tolerance_source) + ". " + markdown_cell(design_text(c)) + "; " +
         markdown_cell(c.stop_reason) + ".</sub>\n";
  return out;
}

std::string append_ab_step_summary(const ab::AbComparison& c) {
  const char* path = std::getenv("GITHUB_STEP_SUMMARY");
  if (path == nullptr || *path == '\0') return {};
  std::ofstream out(path, std::ios::app | std::ios::binary);
  out << render_ab_markdown(c);
  out.flush();
  if (!out) throw InfraError(std::string("cannot append the job summary to ") + path);
  return path;
}

}  // namespace fabricgate::report
