// The HTML page and the Markdown chart on a comparison written out by hand: failing keys first,
// notes beside their key, version changes, one figure pair per collective with its band, NCCL
// choice changes marked, GPU-pair keys in a matrix, trend only with history, everything escaped.
#include <gtest/gtest.h>

#include <regex>

#include "harness/gate/outcome.hpp"
#include "harness/report/html_report.hpp"
#include "harness/report/mermaid_chart.hpp"
#include "harness/report/render.hpp"

namespace fabricgate::report {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using verdict::KeyComparison;
using verdict::Verdict;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1))
    ++n;
  return n;
}

KeyComparison coll(const std::string& op, std::uint64_t bytes, Verdict v, double busbw) {
  KeyComparison k;
  k.key = "coll/nccl/" + op + "/float32/bytes:" + std::to_string(bytes) + "/ranks:2/oop";
  k.family = "coll";
  k.backend = "nccl";
  k.op = op;
  k.bytes = bytes;
  k.nranks = 2;
  k.verdict = v;
  k.reason = "reason of " + k.key;
  k.busbw_now = busbw;
  k.busbw_baseline = busbw * 1.02;
  k.time_us_now = static_cast<double>(bytes) / busbw / 1000 + 5;
  k.time_us_baseline = k.time_us_now * 0.98;
  return k;
}

KeyComparison pair(int src, int dst, Verdict v, double rate) {
  KeyComparison k;
  k.key = "p2p/ce/write/uni/src:" + std::to_string(src) + "/dst:" + std::to_string(dst) +
          "/bytes:1073741824";
  k.family = "p2p";
  k.backend = "cuda";
  k.op = "copy";
  k.bytes = 1 << 30;
  k.nranks = 1;
  k.verdict = v;
  k.algbw_now = rate;
  k.time_us_now = 2700;
  k.notes = {{"P07", "note", "88 % of the NVLink spec"}};
  return k;
}

verdict::Comparison sample() {
  verdict::Comparison c;
  c.run_id = "20261129T191514Z-quick-default";
  c.platform = "h200-sxm-x2-nv18";
  c.run_source = "results/h200-sxm-x2-nv18/20261129T191514Z-quick-default/run.json";
  c.baseline_source = "baselines/h200-sxm-x2-nv18.json";
  c.has_baseline = true;
  c.multiple_comparison = "benjamini-hochberg";
  c.alpha = 0.05;
  c.version_changes = {{"nccl", "2.27.7", "2.28.3"}, {"driver", "570.1", "580.159.04"}};
  for (const std::uint64_t bytes :
       {std::uint64_t{8}, std::uint64_t{1} << 20, std::uint64_t{1} << 30}) {
    c.keys.push_back(coll("all_reduce", bytes, Verdict::pass, 300));
    c.keys.push_back(coll("all_gather", bytes, Verdict::pass, 250));
  }
  KeyComparison& changed = c.keys[2];  // all_reduce 1 MiB
  changed.verdict = Verdict::algo_changed;
  changed.changes = {{"proto", "{Simple}", "{LL128}"}};
  changed.notes = {{"P19", "warn", "channels {24} -> {22}"}};
  KeyComparison& slow = c.keys[5];  // all_gather 1 GiB
  slow.verdict = Verdict::regression;
  verdict::MetricJudgement j;
  j.metric = verdict::Metric::busbw_GBps;
  j.baseline_median = 255;
  j.current_median = 200;
  j.performance_ratio = 200.0 / 255;
  j.tolerance = 0.03;
  j.lower_limit = 255 * 0.97;
  j.upper_limit = 255 / 0.97;
  slow.judgement = j;
  slow.key = "coll/nccl/all_gather/<b>&/bytes:1073741824/ranks:2/oop";  // escaping
  c.keys.push_back(pair(0, 1, Verdict::pass, 396));
  c.keys.push_back(pair(1, 0, Verdict::regression, 200));
  std::stable_sort(
      c.keys.begin(), c.keys.end(),
      [](const KeyComparison& a, const KeyComparison& b) { return a.verdict < b.verdict; });
  gate::settle_outcome(c);  // the judge's one rule (outcome.hpp): FAIL
  return c;
}

TEST(report_Html, HeadlineFailingKeysFirstVersionsNotesAndEscaping) {
  const std::string html = render_html(sample(), HtmlInputs{});
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<header id=\"verdict\" class=\"verdict verdict-fail\"><h1>fabricgate: FAIL: "
                      "3 of 8 keys"),
            std::string::npos);
  const std::size_t failing = html.find("<table class=\"failing-keys\">");
  ASSERT_NE(failing, std::string::npos);
  EXPECT_LT(failing, html.find("id=\"versions\""));
  EXPECT_LT(html.find("id=\"versions\""), html.find("id=\"collectives\""));
  EXPECT_EQ(count(html, "<tr class=\"failing-key\">"), 3u);
  EXPECT_NE(html.find("<td>nccl</td><td>2.27.7</td><td class=\"change\">2.28.3</td>"),
            std::string::npos);
  EXPECT_NE(html.find("<td>driver</td>"), std::string::npos);
  EXPECT_NE(html.find("data-pitfall=\"P19\"><b>P19</b> warn: channels {24} -&gt; {22}"),
            std::string::npos);
  EXPECT_NE(html.find("proto {Simple} → {LL128}"), std::string::npos);
  EXPECT_EQ(html.find("<b>&"), std::string::npos);
  EXPECT_NE(html.find("all_gather/&lt;b&gt;&amp;/bytes"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
}

TEST(report_Html, OneFigurePairPerCollectiveWithBandsMarkersAndAPairMatrix) {
  const verdict::Comparison c = sample();
  HtmlInputs in;
  const std::string html = render_html(c, in);
  EXPECT_EQ(count(html, "class=\"plot plot-rate plot-busbw\""), 2u);
  EXPECT_EQ(count(html, "class=\"plot plot-time\""), 2u);
  // Only the judged band is drawn: all_gather 1 GiB on busbw; the other keys carry no judgement.
  EXPECT_EQ(count(html, "class=\"band baseline-band\""), 1u);
  EXPECT_EQ(count(html, "class=\"marker algo-change\""), 2u);   // both plots of all_reduce
  EXPECT_EQ(count(html, "class=\"marker verdict-fail\""), 2u);  // the regression, both plots
  EXPECT_EQ(count(html, "class=\"plot plot-trend\""), 0u) << "no history, no trend";
  EXPECT_EQ(count(html, "class=\"heatmap pair-matrix\""), 1u);
  EXPECT_EQ(count(html, "class=\"cell cell-fail\""), 1u);
  EXPECT_NE(html.find("1 -&gt; 0: P07 note: 88 % of the NVLink spec"), std::string::npos);
  // The pair keys are in the matrix, not drawn as a curve of their own.
  EXPECT_EQ(html.find("<div class=\"collective\" id=\"p2p"), std::string::npos);
  // render() without inputs gives the same page structure.
  EXPECT_EQ(count(render(c, ReportFormat::html, RenderOptions{}), "class=\"plot plot-time\""), 2u);
}

TEST(report_Html, TrendPlotsFromHistory) {
  const verdict::Comparison c = sample();
  HtmlInputs in;
  for (int i = 0; i < 4; ++i) {
    IndexedRun r;
    r.run_id = "run-" + std::to_string(i);
    r.started_at = "2026-11-2" + std::to_string(i) + "T10:00:00Z";
    for (const KeyComparison& k : c.keys)
      r.keys[k.key] = KeyMedians{k.bytes, k.time_us_now, k.algbw_now, k.busbw_now};
    in.history.push_back(r);
  }
  in.history_source = "results/h200-sxm-x2-nv18";
  const std::string html = render_html(c, in);
  EXPECT_EQ(count(html, "class=\"plot plot-trend\""), 2u);
  EXPECT_NE(html.find(">11-23 10:00</text>"), std::string::npos) << "runs labelled by start time";
  EXPECT_NE(html.find("id=\"history-source\""), std::string::npos);
}

TEST(report_MermaidChart, BarsForBaselineLineForTheRun) {
  const KeyComparison a = coll("all_reduce", 8, Verdict::pass, 0.5);
  const KeyComparison b = coll("all_reduce", 1 << 20, Verdict::pass, 300);
  const std::string chart = mermaid_rate_chart("all_reduce \"x\"", {&a, &b});
  EXPECT_EQ(chart.rfind("```mermaid\nxychart-beta\n", 0), 0u) << chart;
  EXPECT_NE(chart.find("x-axis [\"8 B\", \"1 MiB\"]"), std::string::npos) << chart;
  EXPECT_NE(chart.find("bar [0.51, 306]"), std::string::npos) << chart;
  EXPECT_NE(chart.find("line [0.5, 300]"), std::string::npos) << chart;
  EXPECT_NE(chart.find("title \"all_reduce x: busbw"), std::string::npos)
      << "quotes cannot be escaped: dropped";
  EXPECT_EQ(mermaid_rate_chart("one", {&a}), "");
  EXPECT_EQ(mermaid_rate_chart("same size twice", {&a, &a}), "");

  verdict::Comparison c = sample();
  const std::string md = render_markdown(c, RenderOptions{});
  EXPECT_EQ(count(md, "```mermaid"), 2u)
      << "one chart per collective (the pair keys have one size)";
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::report
