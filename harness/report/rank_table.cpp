#include "harness/report/rank_table.hpp"

#include <iterator>

#include <fmt/format.h>

#include "core/text_escape.hpp"

namespace fabricgate::report {

namespace {

// The rank with the most samples as the slowest (the lower rank on a tie, as the finder counts).
int most_often_slowest(const verdict::RankTable& t) {
  int best = 0;
  for (std::size_t i = 0; i < t.ranks.size(); ++i) {
    if (t.ranks[i].slowest > t.ranks[static_cast<std::size_t>(best)].slowest)
      best = static_cast<int>(i);
  }
  return best;
}

std::string gpu_text(const RankTiming& r) { return r.gpu >= 0 ? fmt::format("{}", r.gpu) : "-"; }

std::string share_text(const RankTiming& r) {
  if (r.count <= 0) return "-";
  return fmt::format("{} of {} ({:.0f} %)", r.slowest, r.count, 100.0 * r.slowest / r.count);
}

std::string ratio_text(const RankTiming& r) {
  return r.p50_us > 0 ? fmt::format("{:.2f}", r.p99_us / r.p50_us) : "-";
}

constexpr const char* kColumns[] = {"rank",          "host",          "CPU set", "GPU",
                                    "pace p50 (us)", "pace p99 (us)", "p99/p50", "off-CPU p50 (us)",
                                    "slowest in"};

}  // namespace

std::string rank_tables_markdown(const verdict::Comparison& c) {
  if (c.rank_tables.empty()) return {};
  std::string out = "### Per-rank timings\n\n";
  out +=
      "Per operation; pace = the wall time at the CPU share the rank got (wall x the least CPU "
      "time of any rank / its own). The rank slowest in most samples is in bold "
      "(docs/STRAGGLERS.md).\n\n";
  for (const verdict::RankTable& t : c.rank_tables) {
    out += "`" + markdown_cell(t.key) + "` — " + markdown_cell(t.why) + "\n\n|";
    for (const char* col : kColumns) out += std::string(" ") + col + " |";
    out += "\n|";
    for (std::size_t i = 0; i < std::size(kColumns); ++i) out += i < 4 ? "---|" : "---:|";
    out += "\n";
    const int top = most_often_slowest(t);
    for (const RankTiming& r : t.ranks) {
      const std::string b = r.rank == top ? "**" : "";
      out += fmt::format("| {}{}{} | {} | {} | {} | {:.1f} | {:.1f} | {} | {:.1f} | {}{}{} |\n", b,
                         r.rank, b, markdown_cell(r.host), markdown_cell(r.cpu_set), gpu_text(r),
                         r.p50_us, r.p99_us, ratio_text(r), r.wait_p50_us, b, share_text(r), b);
    }
    out += "\n";
  }
  return out;
}

std::string rank_tables_html(const verdict::Comparison& c) {
  if (c.rank_tables.empty()) return {};
  std::string out =
      "<section id=\"ranks\"><h2>Per-rank timings</h2><p>Per operation; pace = the wall time at "
      "the CPU share the rank got (wall &times; the least CPU time of any rank / its own). The "
      "rank slowest in most samples is marked (docs/STRAGGLERS.md).</p>\n";
  for (const verdict::RankTable& t : c.rank_tables) {
    out += "<h3><code>" + xml_escape(t.key) + "</code> — " + xml_escape(t.why) +
           "</h3>\n<table class=\"rank-table\"><tr>";
    for (const char* col : kColumns) out += std::string("<th>") + col + "</th>";
    out += "</tr>\n";
    const int top = most_often_slowest(t);
    for (const RankTiming& r : t.ranks) {
      out += fmt::format(
          "<tr{}><td class=\"num\">{}</td><td><code>{}</code></td><td>{}</td><td "
          "class=\"num\">{}</td><td class=\"num\">{:.1f}</td><td class=\"num\">{:.1f}</td><td "
          "class=\"num\">{}</td><td class=\"num\">{:.1f}</td><td class=\"num\">{}</td></tr>\n",
          r.rank == top ? " class=\"slowest-rank\"" : "", r.rank, xml_escape(r.host),
          xml_escape(r.cpu_set), gpu_text(r), r.p50_us, r.p99_us, ratio_text(r), r.wait_p50_us,
          share_text(r));
    }
    out += "</table>\n";
  }
  return out + "</section>\n";
}

std::string rank_tables_console(const verdict::Comparison& c) {
  std::string out;
  for (const verdict::RankTable& t : c.rank_tables) {
    out += "per-rank timings of " + t.key + " (" + t.why + "):\n";
    for (const RankTiming& r : t.ranks) {
      out += fmt::format(
          "  rank {} host {} CPUs {} GPU {}: pace p50 {:.1f} us, p99 {:.1f} us, off-CPU p50 {:.1f} "
          "us, slowest in {}\n",
          r.rank, r.host, r.cpu_set.empty() ? "-" : r.cpu_set, gpu_text(r), r.p50_us, r.p99_us,
          r.wait_p50_us, share_text(r));
    }
  }
  return out;
}

std::string cluster_findings_html(const verdict::Comparison& c) {
  if (c.cluster_findings.empty()) return {};
  std::string out =
      "<section id=\"cluster\"><h2>Cluster</h2><table class=\"cluster-findings\"><tr><th>finding</"
      "th><th>node</th><th>what</th></tr>\n";
  for (const verdict::ClusterFinding& f : c.cluster_findings) {
    out += "<tr><td class=\"" + std::string(f.fails_gate ? "v-fail" : "v-warn") + "\">" +
           xml_escape(f.id) + (f.fails_gate ? " (fails)" : " (warning)") + "</td><td><code>" +
           xml_escape(f.node) + "</code></td><td>" + xml_escape(f.text) + "</td></tr>\n";
  }
  if (!c.node_actions.empty()) {
    out += "</table><p>Node actions:</p><pre>";
    for (const std::string& a : c.node_actions) out += xml_escape(a) + "\n";
    return out + "</pre></section>\n";
  }
  return out + "</table></section>\n";
}

}  // namespace fabricgate::report
