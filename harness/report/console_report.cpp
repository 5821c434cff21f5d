// Console: a compact table for people reading CI logs. Non-passing keys first (the comparison is
// sorted by urgency), each with its reason and the PITFALLS notes under the numbers they concern.
#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "core/text_escape.hpp"
#include "harness/report/fingerprint_changes_report.hpp"
#include "harness/report/key_figures.hpp"
#include "harness/report/note_groups.hpp"
#include "harness/report/rank_table.hpp"
#include "harness/report/render.hpp"
#include "harness/report/roofline_table.hpp"
#include "harness/verdict/units_text.hpp"
#include "harness/verdict/verdict_table.hpp"

namespace fabricgate::report {

namespace {

const char* colour_of(verdict::Verdict v) {
  switch (verdict::facts_of(v).style) {
    case verdict::VerdictStyle::fail: return "\033[1;31m";  // bold red
    case verdict::VerdictStyle::warn: return "\033[1;33m";  // bold yellow
    case verdict::VerdictStyle::pass: return "\033[32m";    // green
    case verdict::VerdictStyle::info: return "\033[36m";    // cyan
    case verdict::VerdictStyle::skip: return "";
  }
  return "";
}

constexpr std::size_t kSummaryLines = 10;  // skip reasons / note groups shown before "N more"

std::string padded(const std::string& text, std::size_t width) {
  return text.size() >= width ? text + " " : text + std::string(width - text.size(), ' ');
}

std::string row(const verdict::KeyComparison& k, std::size_t key_width, bool color) {
  const KeyFigures f = key_figures(k);
  const std::string verdict = verdict::verdict_name(k.verdict);
  const char* on = color ? colour_of(k.verdict) : "";
  const char* off = color && *on ? "\033[0m" : "";
  std::string line = std::string(on) + padded(verdict, 18) + off + padded(k.key, key_width) +
                     padded(f.size, 9) + padded(f.metric, 6) + padded(f.baseline, 14) +
                     padded(f.now, 14) + f.change + "\n";
  return line;
}

// What a reader of a run that was not judged (exit 3) does next, by its settled cause.
std::string what_to_do(const verdict::Comparison& c) {
  if (!c.run_complete) return "rerun; if it stops again, the reason above names where";
  if (c.runner_busy) return "rerun on an idle runner (nothing was blamed)";
  if (c.runner_degraded)
    return "look at the runner: fabricgate nodes " + c.run_source +
           ", fabricgate history --all; the change is not blamed";
  if (c.runner_differs_count() > 0)
    return "judge the change on a runner with history of its own, or with the paired check each "
           "RUNNER-DIFFERS key names (--verbose)";
  if (!c.below_roofline_unjudged.empty())
    return "look at the runner's links (fabricgate fingerprint), then rerun";
  return "rerun; the results store could not keep this verdict";
}

// A run that was not judged says why, how many keys it would have failed and what to do, in a
// few lines (issue 54: a busy runner printed about 60 lines of keys and four node actions). The
// keys are in --verbose, report.md and the JSON.
std::string not_judged_console(const verdict::Comparison& c, std::string out) {
  std::size_t would_fail = 0;
  for (const verdict::KeyComparison& k : c.keys)
    would_fail += verdict::verdict_fails_gate(k.verdict) && !k.missing_because_incomplete ? 1 : 0;
  if (!c.run_complete) out += "run incomplete: " + console_text(c.incomplete_reason) + "\n";
  for (const std::string& r : c.runner_evidence.lines()) out += "runner: " + r + "\n";
  if (!c.confirmation_note.empty()) out += "confirmation: " + c.confirmation_note + "\n";
  out += fmt::format(
      "not judged: {} key(s) would have failed, {} sit outside the fleet (RUNNER-DIFFERS), of {} "
      "keys; each is in --verbose, report.md and --format json\n",
      would_fail, c.runner_differs_count(), c.keys.size());
  out += "what to do: " + console_text(what_to_do(c)) + "\n";
  return out;
}

}  // namespace

std::string render_console(const verdict::Comparison& c, const RenderOptions& options) {
  std::string out = "fabricgate compare: run " + c.run_id + " (" + c.platform + ")";
  out += c.has_baseline ? " vs baseline " + c.baseline_source + "\n" : ", no baseline\n";
  const bool failed = c.exit_code != ExitCode::pass;
  out += (options.color ? (failed ? "\033[1;31m" : "\033[1;32m") : "") + c.headline() +
         (options.color ? "\033[0m" : "") + "\n";
  if (c.exit_code == ExitCode::infra_failure && !options.verbose && c.has_baseline) {
    out += console_text(c.change_line()) + "\n" + console_text(c.runner_line()) + "\n";
    return not_judged_console(c, std::move(out));
  }
  // The two questions, whichever one the exit code answers (--gate).
  out += c.has_baseline
             ? console_text(c.change_line()) + "\n" + console_text(c.runner_line()) + "\n"
         : c.below_roofline_unjudged.empty()
             ? "Change and runner: not judged (no baseline)\n"
             : "Change: not judged (no baseline)\n" + console_text(c.runner_line()) + "\n";
  if (!c.has_baseline) {
    const std::vector<std::string> first_run = first_run_lines(c);
    if (first_run.empty()) {
      out += "No baseline for platform " + c.platform +
             ". Create one from launches of at least three sessions (see `fabricgate baseline "
             "status`):\n  " +
             c.create_baseline_command + "\n";
    }
    for (const std::string& line : first_run) out += line + "\n";
  }
  if (!c.run_complete) out += "run incomplete: " + c.incomplete_reason + "\n";
  for (const verdict::VersionChange& v : c.version_changes) {
    out += "VERSION CHANGED: " + v.component + " " + v.before + " -> " + v.after + "\n";
  }
  if (c.has_baseline)
    out += fingerprint_changes_console(
        {c.fingerprint_changes, c.fingerprint_note, "baseline", "this run"});
  for (const std::string& w : c.warnings) out += "warning: " + w + "\n";
  for (const std::string& r : c.runner_evidence.lines()) out += "runner: " + r + "\n";
  if (!c.confirmation_note.empty()) out += "confirmation: " + c.confirmation_note + "\n";
  if (!c.node_layout.empty()) out += "nodes: " + c.node_layout + "\n";
  constexpr std::size_t kFindingRows = 20;  // 1,024 nodes must not flood a CI log
  for (std::size_t i = 0; i < c.cluster_findings.size() && i < kFindingRows; ++i) {
    const verdict::ClusterFinding& f = c.cluster_findings[i];
    const char* on = options.color && f.fails_gate ? "\033[1;31m" : "";
    out += std::string(on) + (f.fails_gate ? "CLUSTER FAIL " : "cluster warning ") + f.id +
           (*on ? "\033[0m" : "") + ": " + f.text + "\n";
  }
  if (c.cluster_findings.size() > kFindingRows) {
    out += "(" + std::to_string(c.cluster_findings.size() - kFindingRows) +
           " more cluster findings; use --format json)\n";
  }
  for (std::size_t i = 0; i < c.node_actions.size() && i < kFindingRows; ++i) {
    out += (i ? "  " : "node actions (fabricgate nodes RUN --drain runs the Slurm lines):\n  ") +
           c.node_actions[i] + "\n";
  }
  if (c.node_actions.size() > kFindingRows) {
    out += "  (" + std::to_string(c.node_actions.size() - kFindingRows) +
           " more lines: fabricgate nodes RUN)\n";
  }
  out += rank_tables_console(c);
  if (c.keys.empty()) return out;
  const std::string roofline = roofline_console(c);

  const bool any_listed = options.verbose || std::any_of(c.keys.begin(), c.keys.end(),
                                                         [](const verdict::KeyComparison& k) {
                                                           return !summarised_in_quiet_console(k);
                                                         });
  if (!any_listed)
    return out + quiet_summary(c.keys, kSummaryLines, c.has_baseline) + roofline +
           pitfall_legend(c.keys);
  std::size_t key_width = 20;
  for (const verdict::KeyComparison& k : c.keys) key_width = std::max(key_width, k.key.size() + 2);
  key_width = std::min<std::size_t>(key_width, 72);
  out += "\n" + padded("VERDICT", 18) + padded("KEY", key_width) + padded("SIZE", 9) +
         padded("METRIC", 6) + padded("BASELINE", 14) + padded("NOW", 14) + "CHANGE (+ = better)\n";
  std::size_t shown = 0;
  std::size_t hidden = 0;
  for (const verdict::KeyComparison& k : c.keys) {
    const bool quiet = summarised_in_quiet_console(k);
    if (quiet && !options.verbose) continue;  // summarised after the table
    if (quiet && shown >= options.max_console_rows) {
      ++hidden;
      continue;
    }
    ++shown;
    out += row(k, key_width, options.color);
    if (!quiet) out += "    " + k.reason + "\n";
    for (const std::string& n : note_lines(k)) out += "    " + n + "\n";
  }
  if (hidden > 0)
    out += "(" + std::to_string(hidden) +
           " passing/skipped keys not listed; use --format json for all)\n";
  if (!options.verbose) out += "\n" + quiet_summary(c.keys, kSummaryLines, c.has_baseline);
  return out + roofline + pitfall_legend(c.keys);
}

}  // namespace fabricgate::report
