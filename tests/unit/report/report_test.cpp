// Golden tests for the renderers: regexes for the key facts (verdict, size, change, metric,
// before -> after, notes), escaping, colours only when asked, size caps.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/text_escape.hpp"
#include "harness/gate/outcome.hpp"
#include "harness/report/render.hpp"
#include "harness/verdict/verdict_table.hpp"

namespace fabricgate::report {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

using verdict::Comparison;
using verdict::KeyComparison;
using verdict::Verdict;

KeyComparison key(const std::string& name, std::uint64_t bytes, Verdict v) {
  KeyComparison k;
  k.key = name;
  k.family = "coll";
  k.backend = "nccl";
  k.op = "all_reduce";
  k.bytes = bytes;
  k.nranks = 8;
  k.verdict = v;
  k.time_us_now = 100;
  k.time_us_baseline = 95;
  k.busbw_now = 80;
  k.busbw_baseline = 85;
  return k;
}

// A comparison as compare_run would produce it, written out so renderers are tested alone.
Comparison sample() {
  Comparison c;
  c.run_id = "20261129T190000Z-h200";
  c.platform = "h200-sxm-x8";
  c.run_source = "results/h200-sxm-x8/20261129T190000Z-h200/run.json";
  c.baseline_source = "baselines/h200-sxm-x8.json";
  c.has_baseline = true;
  c.multiple_comparison = "benjamini-hochberg";
  c.alpha = 0.05;
  c.capture.path = "log";
  c.capture.network = "Socket";
  c.capture.transports = {"P2P/CUMEM"};
  c.capture.nccl_version = "2.28.3";
  c.version_changes = {{"nccl", "2.27.7", "2.28.3"}};

  KeyComparison reg = key("coll/nccl/all_reduce/float32/sum/bytes:268435456/ranks:8/oop",
                          256u << 20, Verdict::regression);
  verdict::MetricJudgement j;
  j.metric = verdict::Metric::busbw_GBps;
  j.baseline_median = 85;
  j.current_median = 80;
  j.performance_ratio = 80.0 / 85.0;
  j.tolerance = 0.03;
  j.band = 0.02;
  j.launches = 5;
  reg.judgement = j;
  reg.reason = "256 MiB: busbw_GBps 85.00 GB/s -> 80.00 GB/s (-5.9% worse, tolerance 3.0%)";
  reg.notes = {{"P09", "warn", "warm-up 12.1x slower than the timed median"}};

  KeyComparison transport = key("coll/nccl/all_gather/float32/none/bytes:1048576/ranks:8/oop",
                                1 << 20, Verdict::transport_changed);
  transport.op = "all_gather";
  transport.changes = {{"network", "IB", "Socket"}};
  transport.reason = "1 MiB: transport changed (P05/P06): network IB -> Socket";

  KeyComparison algo = key("coll/nccl/all_reduce/float32/sum/bytes:1048576/ranks:8/oop", 1 << 20,
                           Verdict::algo_changed);
  algo.changes = {{"algo", "{Ring}", "{NVLSTree}"}};
  algo.reason = "1 MiB: NCCL choice changed (P19): algo {Ring} -> {NVLSTree}";

  KeyComparison amb =
      key("coll/nccl/all_reduce/float32/sum/bytes:65536/ranks:8/oop", 65536, Verdict::ambiguous);
  amb.reason = "64 KiB: busbw -12% but the rank test does not confirm it (noise)";

  KeyComparison pass =
      key("coll/nccl/all_reduce/float32/sum/bytes:8/ranks:8/oop", 8, Verdict::pass);
  pass.reason = "8 B: time_us 20 -> 20";
  c.keys = {transport, algo, reg, amb, pass};
  gate::settle_outcome(c);  // the judge's one rule (outcome.hpp): FAIL, the printers read it
  return c;
}

void expect_match(const std::string& text, const std::string& pattern) {
  EXPECT_TRUE(std::regex_search(text, std::regex(pattern)))
      << "no match for /" << pattern << "/ in:\n"
      << text;
}

TEST(report_Console, FailuresFirstWithReasonsNotesAndNoColourByDefault) {
  const std::string out = render_console(sample(), RenderOptions{});
  expect_match(out, R"(FAIL: 3 of 5 keys fail the gate)");
  expect_match(out, R"(VERSION CHANGED: nccl 2\.27\.7 -> 2\.28\.3)");
  expect_match(out, R"(TRANSPORT-CHANGED\s+coll/nccl/all_gather\S+\s+1 MiB)");
  expect_match(out, R"(network IB -> Socket)");
  expect_match(
      out,
      R"(REGRESSION\s+\S+bytes:268435456\S+\s+256 MiB\s+busbw\s+85\.00 GB/s\s+80\.00 GB/s\s+-5\.9%)");
  expect_match(out, R"(algo \{Ring\} -> \{NVLSTree\})");
  expect_match(
      out,
      R"(256 MiB[^\n]*\n[^\n]*-5\.9% worse[^\n]*\n\s+P09 warn: warm-up 12\.1x)");  // note under its
                                                                                   // numbers
  EXPECT_LT(out.find("TRANSPORT-CHANGED"), out.find("PASS  "));
  EXPECT_EQ(out.find("\033["), std::string::npos);
}

TEST(report_Console, ColoursOnlyWhenAsked) {
  RenderOptions o;
  o.color = true;
  EXPECT_NE(render_console(sample(), o).find("\033[1;31m"), std::string::npos);
}

TEST(report_Console, NoBaselineShowsTheCreateCommand) {
  Comparison c = sample();
  c.has_baseline = false;
  c.create_baseline_command =
      "fabricgate baseline create --from results/x/r1 --from <second run of x>";
  c.exit_code = ExitCode::pass;
  expect_match(
      render_console(c, {}),
      R"(No baseline for platform h200-sxm-x8[^\n]*\n\s+fabricgate baseline create --from results/x/r1)");
}

TEST(report_Markdown, HeadlineFailingKeysVersionsTablesCapture) {
  const std::string md = render_markdown(sample(), RenderOptions{});
  expect_match(md, R"(^## fabricgate :x: FAIL: 3 of 5 keys fail the gate)");
  expect_match(md, R"(Versions changed since the baseline:\*\* nccl `2\.27\.7` → `2\.28\.3`)");
  expect_match(
      md,
      R"(\| \*\*REGRESSION\*\* \| `coll/nccl/all_reduce/float32/sum/bytes:268435456/ranks:8/oop` \| 256 MiB: busbw\\_GBps)");
  expect_match(md, R"(\| AMBIGUOUS \| `[^`]+bytes:65536[^`]+` \|)");
  expect_match(md, R"(#### all\\_reduce \(coll/nccl, 8 ranks\))");
  expect_match(
      md,
      R"(\| 256 MiB \| 85\.00 GB/s \| 80\.00 GB/s \| 95\.00 us \| 100\.0 us \| busbw \| -5\.9% \| REGRESSION \|)");
  // A cell that starts like an ordered list ("2.") has its dot escaped (markdown_text).
  expect_match(md, R"(\| log \| Socket \| P2P/CUMEM \| no \| 2\\\.28\.3 \|)");
  EXPECT_EQ(md.find("Avg"), std::string::npos);  // P03: never an average over sizes
  // Sizes ascend within a collective's table.
  EXPECT_LT(md.find("| 8 B |"), md.find("| 64 KiB |"));
}

TEST(report_Markdown, StaysUnderTheSizeLimit) {
  Comparison c = sample();
  const KeyComparison pass = c.keys.back();
  for (int i = 0; i < 20000; ++i) {
    KeyComparison k = pass;
    k.key += std::to_string(i);
    k.bytes = static_cast<std::uint64_t>(i);
    c.keys.push_back(k);
  }
  RenderOptions o;
  o.max_markdown_bytes = 64 * 1024;
  const std::string md = render_markdown(c, o);
  EXPECT_LE(md.size(), o.max_markdown_bytes);
  expect_match(md, "truncated");
  expect_match(md, R"(\*\*REGRESSION\*\*)");  // failing keys survive the cut
  expect_match(md, R"(### Capture)");
}

TEST(report_Junit, ARunnerBusyRunSkipsItsLoadMadeFailuresAndKeepsTheOthers) {
  Comparison c = sample();  // a REGRESSION and a TRANSPORT-CHANGED among its keys
  c.runner_busy = true;     // as judge_run would only mark it without the latter; the renderer
                            // still must not hide a failure load cannot cause
  const std::string xml = render_junit(c);
  expect_match(xml, R"(<skipped message="REGRESSION: not judged, the runner was busy: 256 MiB)");
  expect_match(xml, R"(<failure type="TRANSPORT-CHANGED")");
  EXPECT_EQ(xml.find(R"(<failure type="REGRESSION")"), std::string::npos) << xml;
}

// What another GPU user sets reaches the console: a foreign process's name is its /proc/PID/comm,
// a throttling line carries a GPU's text. Through render() (the CLI's path) both show escaped.
TEST(report_Console, RunnerEvidenceFromOtherUsersIsShownEscaped) {
  Comparison c = sample();
  c.host_id = "h\x1b]0;t\x07";
  verdict::ForeignGpuProcess p;
  p.pid = 4242;
  p.name = "miner\x1b]0;owned\x07\r";
  p.gpu_uuid = "GPU-1";
  p.launch = "run-1";
  p.seen = "start";
  c.runner_evidence.recorded = true;
  c.runner_evidence.foreign_processes.push_back(p);
  c.runner_evidence.foreign_load = true;
  c.runner_evidence.throttling.push_back("run-1: GPU 0\x1b[2J\n::error::x: HW slowdown");
  for (const ReportFormat f : {ReportFormat::console, ReportFormat::markdown}) {
    const std::string out = render(c, f, RenderOptions{});
    for (const char raw : {'\x1b', '\x07', '\r'})
      EXPECT_EQ(out.find(raw), std::string::npos) << out;
    EXPECT_EQ(out.find("\n::"), std::string::npos) << out;
    EXPECT_NE(out.find(f == ReportFormat::console ? "miner\\x1b]0;owned" : "miner\\\\x1b"),
              std::string::npos)
        << out;  // shown, escaped
  }
}

// A degraded runner (exit 3, harness/gate/outcome.hpp): its failing keys are infrastructure
// errors, not failed tests, and say why.
TEST(report_Junit, ARunnerDegradedRunReportsItsFailuresAsErrors) {
  Comparison c = sample();
  std::erase_if(c.keys, [](const KeyComparison& k) {
    return verdict_fails_gate(k.verdict) && k.verdict != Verdict::regression;
  });
  c.runner_degraded = true;
  const std::string xml = render_junit(c);
  expect_match(xml, R"(failures="0" errors="1")");
  expect_match(
      xml, R"(<error type="RUNNER-DEGRADED" message="REGRESSION: slower than the host&apos;s own )"
           R"(level, software unchanged: 256 MiB)");
  EXPECT_EQ(xml.find("<failure "), std::string::npos) << xml;
}

// Issue 54: a run that was not judged (exit 3) says why, how many keys it would have failed and
// what to do in a few lines; the keys go to --verbose (and report.md, JSON).
TEST(report_Console, ANotJudgedRunFitsTwelveLinesAndSaysWhatToDo) {
  Comparison c = sample();
  std::erase_if(c.keys, [](const KeyComparison& k) {
    return verdict_fails_gate(k.verdict) && k.verdict != Verdict::regression;
  });
  for (int i = 0; i < 60; ++i) {  // a busy runner's many slow keys
    KeyComparison k = c.keys.front();
    k.key += "/copy:" + std::to_string(i);
    k.verdict = Verdict::regression;
    c.keys.push_back(k);
  }
  c.runner_busy = true;
  c.busy_threshold = 0.25;
  c.host_cpu_pressure = 0.9;
  c.exit_code = ExitCode::infra_failure;  // a settled judgement, as judge_run hands it over
  c.settled.cause = verdict::OutcomeCause::runner_busy;
  c.settled.change = verdict::ChangeAnswer::runner_busy;
  c.settled.change_failing = 61;
  const std::string out = render_console(c, {});
  EXPECT_LE(std::count(out.begin(), out.end(), '\n'), 12) << out;
  EXPECT_NE(out.find("RUNNER BUSY, NOT JUDGED"), std::string::npos) << out;
  EXPECT_NE(out.find("Change: not judged, the runner was busy"), std::string::npos) << out;
  EXPECT_NE(out.find("not judged: 61 key(s) would have failed"), std::string::npos) << out;
  EXPECT_NE(out.find("what to do: rerun on an idle runner"), std::string::npos) << out;
  EXPECT_EQ(out.find("/copy:"), std::string::npos) << out;  // no key rows by default
  RenderOptions verbose;
  verbose.verbose = true;
  EXPECT_NE(render_console(c, verbose).find("/copy:59"), std::string::npos);
  EXPECT_EQ(nlohmann::json::parse(render(c, ReportFormat::json, {}))["change"]["verdict"],
            "NOT-JUDGED");
}

TEST(report_Junit, OneTestcasePerKeyFailuresCarryTheMessage) {
  Comparison c = sample();
  c.keys[1].reason = "quote \" amp & lt < gt > apos '";
  const std::string xml = render_junit(c);
  expect_match(xml, R"(^<\?xml version="1\.0" encoding="UTF-8"\?>)");
  expect_match(xml,
               R"(<testsuites name="fabricgate" tests="5" failures="3" errors="0" skipped="0">)");
  const std::regex testcase("<testcase ");
  EXPECT_EQ(
      std::distance(std::sregex_iterator(xml.begin(), xml.end(), testcase), std::sregex_iterator()),
      5);
  expect_match(
      xml,
      R"(<failure type="REGRESSION" message="256 MiB: busbw_GBps 85\.00 GB/s -&gt; 80\.00 GB/s)");
  expect_match(xml, R"(<failure type="TRANSPORT-CHANGED")");
  expect_match(xml, R"(message="quote &quot; amp &amp; lt &lt; gt &gt; apos &apos;")");
  EXPECT_EQ(xml.find(" & "), std::string::npos);
}

TEST(report_Annotations, AtMostTenErrorsFirstEscaped) {
  Comparison c = sample();
  for (int i = 0; i < 20; ++i) {
    KeyComparison k = c.keys[2];
    k.key = "k" + std::to_string(i);
    k.reason = "100% worse\nsecond line";
    c.keys.push_back(k);
  }
  const std::string out = render_annotations(c, RenderOptions{});
  const auto lines = std::count(out.begin(), out.end(), '\n');
  EXPECT_EQ(lines, 10);
  expect_match(out, R"(^::error title=fabricgate TRANSPORT-CHANGED::coll/nccl/all_gather)");
  expect_match(out, R"(100%25 worse%0Asecond line)");
  EXPECT_EQ(out.find("::warning"), std::string::npos);  // errors crowd out warnings at the cap
}

TEST(report_Annotations, VersionChangeAndAmbiguousAreWarnings) {
  Comparison c = sample();
  c.keys.erase(c.keys.begin(), c.keys.begin() + 3);
  c.exit_code = ExitCode::pass;
  const std::string out = render_annotations(c, RenderOptions{});
  expect_match(out, R"(::warning title=fabricgate%3A version changed::nccl 2\.27\.7 -> 2\.28\.3)");
  expect_match(out, R"(::warning title=fabricgate AMBIGUOUS::)");
}

TEST(report_Json, CarriesSchemaVerdictsAndExitCode) {
  const std::string out = render_json(sample());
  expect_match(out, R"("schema": "fabricgate\.comparison/1")");
  expect_match(out, R"("verdict": "ALGO-CHANGED")");
  expect_match(out, R"("exit_code": 1)");
}

TEST(report_Format, ParseNames) {
  EXPECT_EQ(parse_report_format("junit"), ReportFormat::junit);
  EXPECT_EQ(parse_report_format("html"), ReportFormat::html);
  EXPECT_THROW(parse_report_format("pdf"), InputError);
}

TEST(report_Escape, Rules) {
  EXPECT_EQ(xml_escape("a<b>&\"'\x01"), "a&lt;b&gt;&amp;&quot;&apos;");
  EXPECT_EQ(annotation_data("50%\r\n"), "50%25%0D%0A");
  EXPECT_EQ(annotation_property("a:b,c"), "a%3Ab%2Cc");
  EXPECT_EQ(markdown_cell("a|b\nc"), "a\\|b c");
  EXPECT_EQ(markdown_code("a`b|c"), "``a`b\\|c``");
  EXPECT_EQ(slack_text("<!channel> @here *b*"), "&lt;!channel&gt; @\u200bhere \u200b*b\u200b*");
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::report
