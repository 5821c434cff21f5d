// Markdown for GitHub's job summary: verdict headline, failing keys, versions that changed,
// per-collective busbw charts (Mermaid) and tables (size vs busbw/time, baseline vs now: the
// curve, never an average over sizes, P03), capture summary. Capped below GitHub's 1 MiB limit.
#include <algorithm>
#include <map>
#include <tuple>

#include "core/text_escape.hpp"
#include "harness/report/fingerprint_changes_report.hpp"
#include "harness/report/key_figures.hpp"
#include "harness/report/mermaid_chart.hpp"
#include "harness/report/note_groups.hpp"
#include "harness/report/rank_table.hpp"
#include "harness/report/render.hpp"
#include "harness/report/roofline_table.hpp"
#include "harness/verdict/units_text.hpp"
#include "harness/verdict/verdict_table.hpp"

namespace fabricgate::report {

namespace {

std::string code(const std::string& s) { return markdown_code(s); }

// A bandwidth cell: busbw when the key has one, else algbw, else empty. Taking plain values (not
// std::optional) also keeps GCC 12's -Wmaybe-uninitialized quiet at -O2.
std::string rate_cell(const std::optional<double>& busbw, double algbw) {
  if (busbw.has_value()) return verdict::format_metric(busbw.value(), false);
  return algbw > 0 ? verdict::format_metric(algbw, false) : "";
}

std::string opt_time(double v) { return v > 0 ? verdict::format_metric(v, true) : ""; }

void headline(const verdict::Comparison& c, std::string& out) {
  // A pass with nothing gated, or with warnings, is not a plain green tick.
  const char* icon = c.exit_code != ExitCode::pass ? ":x:"
                     : !c.has_baseline || c.warning_count() > 0 || c.gated_count() == 0
                         ? ":warning:"
                         : ":white_check_mark:";
  out += "## fabricgate " + std::string(icon) + " " + markdown_cell(c.headline()) + "\n\n";
  // The two questions, whichever one the exit code answers (--gate).
  out += "- " + markdown_cell(c.change_line()) + "\n- " + markdown_cell(c.runner_line()) +
         " (`--gate " + verdict::gate_mode_name(c.gate) + "`)\n\n";
  out += "Run " + code(c.run_id) + " on " + code(c.platform);
  out +=
      c.has_baseline ? " vs baseline " + code(c.baseline_source) + ".\n\n" : ", no baseline.\n\n";
  const std::vector<std::string> first_run = first_run_lines(c);
  if (!c.has_baseline && first_run.empty()) {
    out +=
        "> [!WARNING]\n> No baseline for this platform; nothing was compared with a baseline. "
        "Create one from launches of at least three sessions (separate `fabricgate run` "
        "invocations, ideally on several machines; `fabricgate baseline status` says what is "
        "missing) and commit it through a pull request:\n>\n> ```\n> " +
        c.create_baseline_command + "\n> ```\n\n";
  } else if (!c.has_baseline) {
    out += "> [!NOTE]\n> " + markdown_cell(first_run[0]) + " " + markdown_cell(first_run[1]) +
           "\n>\n> ```\n";
    for (std::size_t i = 2; i < first_run.size(); ++i) out += "> " + first_run[i] + "\n";
    out += "> ```\n\n";
  }
  if (!c.run_complete)
    out += "> [!CAUTION]\n> Incomplete run: " + markdown_cell(c.incomplete_reason) + "\n\n";
  if (!c.version_changes.empty()) {
    out += "> [!IMPORTANT]\n> **Versions changed since the baseline:**";
    for (const verdict::VersionChange& v : c.version_changes) {
      out += " " + v.component + " " + code(v.before) + " → " + code(v.after) + ";";
    }
    out += "\n\n";
  }
  for (const std::string& w : c.warnings) out += "> [!WARNING]\n> " + markdown_cell(w) + "\n\n";
  // What the runner was doing (docs/COUNTERS.md): foreign GPU processes, throttling, unread.
  for (const std::string& r : c.runner_evidence.lines())
    out += "> [!NOTE]\n> Runner: " + markdown_cell(r) + "\n\n";
  if (c.has_baseline)
    out += fingerprint_changes_markdown(
        {c.fingerprint_changes, c.fingerprint_note, "baseline", "this run"});
}

// Nodes that differ from the rest, slow node pairs, suspect nodes (docs/MULTINODE.md).
void cluster_section(const verdict::Comparison& c, std::string& out) {
  if (c.node_layout.empty() && c.cluster_findings.empty()) return;
  out += "### Cluster\n\n";
  if (!c.node_layout.empty()) out += markdown_cell(c.node_layout) + ".\n\n";
  if (c.cluster_findings.empty()) {
    out +=
        "Every node has the same driver, CUDA, NCCL, GPUs and NICs; no node pair stands out.\n\n";
    return;
  }
  constexpr std::size_t kRows = 200;
  out += "| finding | node | what |\n|---|---|---|\n";
  for (std::size_t i = 0; i < c.cluster_findings.size() && i < kRows; ++i) {
    const verdict::ClusterFinding& f = c.cluster_findings[i];
    out += "| " + std::string(f.fails_gate ? "**" : "") + f.id +
           (f.fails_gate ? "** (fails)" : " (warning)") + " | " + code(f.node) + " | " +
           markdown_cell(f.text) + " |\n";
  }
  if (c.cluster_findings.size() > kRows) {
    out += "\n_" + std::to_string(c.cluster_findings.size() - kRows) +
           " more findings in the JSON report._\n";
  }
  out += "\n";
  if (c.node_actions.empty()) return;
  // Lines an admin pastes: node names and reasons are restricted to shell-safe characters
  // (harness/cluster/node_actions.hpp), so the fence holds them verbatim.
  out += "Node actions (`fabricgate nodes RUN --drain` runs the Slurm lines):\n\n```sh\n";
  for (std::size_t i = 0; i < c.node_actions.size() && i < kRows; ++i)
    out += c.node_actions[i] + "\n";
  if (c.node_actions.size() > kRows)
    out += "# " + std::to_string(c.node_actions.size() - kRows) +
           " more lines: fabricgate nodes RUN\n";
  out += "```\n\n";
}

void failing_keys(const verdict::Comparison& c, std::string& out) {
  std::string rows;
  for (const verdict::KeyComparison& k : c.keys) {
    const bool fails = verdict::facts_of(k.verdict).fails;
    if (!fails && !verdict::facts_of(k.verdict).warns) continue;
    std::string reason = k.reason;
    for (const std::string& n : note_lines(k)) reason += " — " + n;
    rows += "| " + std::string(fails ? "**" : "") + verdict::verdict_name(k.verdict) +
            (fails ? "**" : "") + " | " + code(k.key) + " | " + markdown_cell(reason) + " |\n";
  }
  if (rows.empty()) return;
  out +=
      "### Failing keys and warnings\n\n| verdict | key | reason |\n|---|---|---|\n" + rows + "\n";
}

void per_collective(const verdict::Comparison& c, std::string& out) {
  // Group by what a curve is drawn over: (family, backend, op, ranks), sizes ascending.
  using Group = std::tuple<std::string, std::string, std::string, int>;
  std::map<Group, std::vector<const verdict::KeyComparison*>> groups;
  for (const verdict::KeyComparison& k : c.keys)
    groups[{k.family, k.backend, k.op, k.nranks}].push_back(&k);
  out += "### Per collective\n\n";
  for (auto& [g, keys] : groups) {
    std::sort(keys.begin(), keys.end(), [](const auto* a, const auto* b) {
      return a->bytes != b->bytes ? a->bytes < b->bytes : a->key < b->key;
    });
    // op, family and backend come from the run file: data, like the key.
    out += "#### " + markdown_cell(std::get<2>(g)) + " (" + markdown_cell(std::get<0>(g)) + "/" +
           markdown_cell(std::get<1>(g)) + ", " + std::to_string(std::get<3>(g)) + " ranks)\n\n";
    out += mermaid_rate_chart(std::get<2>(g), keys);
    out +=
        "| size | busbw baseline | busbw now | time baseline | time now | judged | change (+ = "
        "better) | verdict |\n"
        "|---:|---:|---:|---:|---:|---|---:|---|\n";
    for (const verdict::KeyComparison* k : keys) {
      const KeyFigures f = key_figures(*k);
      out += "| " + f.size + " | " + rate_cell(k->busbw_baseline, k->algbw_baseline) + " | " +
             rate_cell(k->busbw_now, k->algbw_now) + " | " + opt_time(k->time_us_baseline) + " | " +
             opt_time(k->time_us_now) + " | " + (k->judgement ? f.metric : "") + " | " + f.change +
             " | " + verdict::verdict_name(k->verdict) + " |\n";
    }
    out += "\n";
  }
}

void capture_summary(const verdict::Comparison& c, std::string& out) {
  std::string transports;
  for (const std::string& t : c.capture.transports)
    transports += (transports.empty() ? "" : ", ") + t;
  out +=
      "### Capture\n\n| path | network | transports | GDRDMA | NCCL |\n|---|---|---|---|---|\n| " +
      markdown_cell(c.capture.path) + " | " +
      markdown_cell(c.capture.network.empty() ? "-" : c.capture.network) + " | " +
      markdown_cell(transports.empty() ? "-" : transports) + " | " +
      (c.capture.gdrdma ? "yes" : "no") + " | " +
      markdown_cell(c.capture.nccl_version.empty() ? "-" : c.capture.nccl_version) + " |\n\n";
  out +=
      "<sub>Statistics: the launch is the unit; a key regresses when this launch's median leaves "
      "the "
      "prediction band of the baseline's launch medians (one-sided, alpha " +
      std::to_string(c.alpha).substr(0, 6) +
      " per key, floored by the size class's tolerance) and a confirmation launch agrees.</sub>\n";
  if (!c.confirmation_note.empty())
    out += "\n<sub>Confirmation: " + markdown_cell(c.confirmation_note) + "</sub>\n";
}

}  // namespace

std::string render_markdown(const verdict::Comparison& c, const RenderOptions& options) {
  std::string head;
  headline(c, head);
  cluster_section(c, head);
  head += rank_tables_markdown(c);
  failing_keys(c, head);
  std::string tail;
  capture_summary(c, tail);
  // The roofline table and the notes come before the per-size tables: those are cut first.
  std::string tables = roofline_markdown(c) + markdown_note_groups(c.keys);
  per_collective(c, tables);
  // The headline, failing keys and capture always fit; the per-size tables are cut if needed.
  const std::size_t budget = options.max_markdown_bytes > head.size() + tail.size() + 200
                                 ? options.max_markdown_bytes - head.size() - tail.size() - 200
                                 : 0;
  if (tables.size() > budget) {
    const std::size_t cut = tables.rfind('\n', budget);
    tables = tables.substr(0, cut == std::string::npos ? 0 : cut + 1) +
             "\n_Tables truncated to stay under GitHub's 1 MiB job-summary limit; see the JSON "
             "report for every key._\n\n";
  }
  std::string out = head + tables + tail;
  if (out.size() > options.max_markdown_bytes)
    out.resize(options.max_markdown_bytes);  // pathological heads
  return out;
}

}  // namespace fabricgate::report
