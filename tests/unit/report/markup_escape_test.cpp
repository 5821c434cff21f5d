// Run data in GitHub Markdown (report.md, the PR comment, the job summary) and Slack mrkdwn is
// shown as text, never as markup. The Markdown side is checked with a real renderer, cmark-gfm
// with GitHub's extensions (tables, autolinks, strikethrough) and raw HTML allowed as GitHub
// allows it: no link, image, HTML tag, heading, emphasis, code span, list or extra table column
// comes out of data, and the rendered text is the data itself (only U+200B added).
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>

#include "core/text_escape.hpp"
#include "harness/report/render.hpp"

namespace fabricgate::report {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

const std::vector<std::string> kHostile = {
    "@octocat please look",
    "cc @org/team-name and a@b.com",
    "<img src=x onerror=alert(1)>",
    "<details><summary>x</summary>hidden</details>",
    "[click](https://evil.example/?a=1&b=2)",
    "![pic](https://evil.example/p.png)",
    "# Heading",
    "## also",
    "*bold* _it_ **b** ~~s~~",
    "`code` ``x``",
    "a | b | c",
    "https://evil.example/path www.evil.example",
    "- list item",
    "1. numbered",
    "> quote",
    "&lt;script&gt; &amp; &#64;user",
    "<script>alert(1)</script>",
    "fixes #123 and GH-4",
    "\\*not\\* escaped \\",
    "line1\n# line2\n<img src=y>",
    "<https://autolink.example>",
    "===",
    "op<b>x</b>",
};

bool have_cmark() { return std::system("cmark-gfm --version >/dev/null 2>&1") == 0; }

std::string render_gfm(const std::string& markdown) {
  const std::string in = testing::TempDir() + "md-" + std::to_string(getpid()) + ".md";
  std::ofstream(in) << markdown;
  const std::string cmd =
      "cmark-gfm --unsafe -e table -e autolink -e strikethrough -e tasklist < '" + in + "'";
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    std::array<char, 4096> buf{};
    std::size_t n = 0;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
    pclose(p);
  }
  std::filesystem::remove(in);
  return out;
}

std::string without(std::string s, const std::string& what) {
  for (auto at = s.find(what); at != std::string::npos; at = s.find(what, at))
    s.erase(at, what.size());
  return s;
}

// The text of rendered HTML: tags dropped, the entities cmark writes decoded.
std::string text_of(const std::string& html) {
  std::string s = std::regex_replace(html, std::regex("<[^>]*>"), "");
  for (const auto& [entity, c] : std::vector<std::pair<std::string, std::string>>{
           {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&amp;", "&"}}) {
    for (auto at = s.find(entity); at != std::string::npos; at = s.find(entity, at + 1))
      s.replace(at, entity.size(), c);
  }
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

void expect_inert_html(const std::string& html, const std::string& what) {
  for (const char* tag : {"<a ", "<img", "<details", "<summary", "<script", "<h1", "<h2", "<h3",
                          "<em>", "<strong>", "<del>", "<ul>", "<ol>", "<blockquote", "<hr"}) {
    EXPECT_EQ(html.find(tag), std::string::npos) << what << " made " << tag << ":\n" << html;
  }
  // No @mention: every '@' is followed by the zero-width space.
  static const std::regex mention("@[A-Za-z0-9]");
  EXPECT_FALSE(std::regex_search(html, mention)) << what << ":\n" << html;
  static const std::regex issue("#[0-9]");
  EXPECT_FALSE(std::regex_search(html, issue)) << what << ":\n" << html;
}

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n') c = ' ';
  return s;
}

TEST(report_MarkupEscape, MarkdownTextRendersAsTheTextItself) {
  if (!have_cmark()) GTEST_SKIP() << "cmark-gfm not installed (ci/bootstrap installs it)";
  for (const std::string& bad : kHostile) {
    // As a paragraph start, inside a table cell and after a quote marker, as the writers use it.
    const std::string para = render_gfm(markdown_text(bad) + "\n");
    expect_inert_html(para, "paragraph of " + bad);
    EXPECT_EQ(without(text_of(para), "\u200b"), one_line(bad)) << para;
    const std::string table =
        render_gfm("| a | b |\n|---|---|\n| " + markdown_cell(bad) + " | end |\n");
    expect_inert_html(table, "cell of " + bad);
    EXPECT_NE(table.find("<td>end</td>"), std::string::npos) << "a column was added:\n" << table;
    const std::string quoted = render_gfm("> [!WARNING]\n> " + markdown_cell(bad) + "\n");
    for (const char* tag : {"<a ", "<img", "<details", "<h1", "<em>", "<ul>", "<ol>"})
      EXPECT_EQ(quoted.find(tag), std::string::npos) << bad << ":\n" << quoted;
  }
}

TEST(report_MarkupEscape, CodeSpansHoldAnyTextLiterally) {
  if (!have_cmark()) GTEST_SKIP() << "cmark-gfm not installed (ci/bootstrap installs it)";
  for (const std::string& bad : kHostile) {
    const std::string html =
        render_gfm("| key | x |\n|---|---|\n| " + markdown_code(bad) + " | end |\n");
    EXPECT_EQ(html.find("<img"), std::string::npos) << html;
    EXPECT_EQ(html.find("<a "), std::string::npos) << html;
    EXPECT_NE(html.find("<td>end</td>"), std::string::npos) << html;
    const auto open = html.find("<code>");
    const auto close = html.find("</code>");
    ASSERT_NE(open, std::string::npos) << html;
    EXPECT_EQ(text_of(html.substr(open, close - open)), one_line(bad)) << html;
  }
}

// The whole Markdown report with hostile op, family, backend, key, reason, notes and versions.
TEST(report_MarkupEscape, TheMarkdownReportMakesNoMarkupFromRunData) {
  if (!have_cmark()) GTEST_SKIP() << "cmark-gfm not installed (ci/bootstrap installs it)";
  for (const std::string& bad : kHostile) {
    verdict::Comparison c;
    c.run_id = "run-1";
    c.platform = "p";
    c.has_baseline = true;
    c.version_changes = {{"nccl", "2.27.7", bad}};
    c.incomplete_reason = bad;
    c.run_complete = false;
    c.warnings = {bad};
    c.capture.network = bad;
    verdict::KeyComparison k;
    k.key = "coll/nccl/" + bad;
    k.family = bad;
    k.backend = bad;
    k.op = bad;
    k.bytes = 8;
    k.nranks = 2;
    k.verdict = verdict::Verdict::regression;
    k.reason = bad;
    k.time_us_now = 10;
    k.time_us_baseline = 9;
    verdict::KeyComparison k2 = k;
    k2.bytes = 16;
    k2.key += "/16";
    c.keys = {k, k2};
    c.exit_code = ExitCode::gate_failure;
    const std::string md = render(c, ReportFormat::markdown, RenderOptions{});
    // The report's own markup is fixed: headings it writes, its table columns, its <sub> and
    // <details>; data may add none.
    const std::string html = render_gfm(md);
    for (const char* tag : {"<a ", "<img", "<script", "<em>", "<del>", "<ol>", "<h1"})
      EXPECT_EQ(html.find(tag), std::string::npos) << bad << " made " << tag << ":\n" << md;
    // GitHub links no mention inside code; everywhere else '@' carries the zero-width space.
    const std::string prose = std::regex_replace(html, std::regex("<code>[^<]*</code>"), "");
    static const std::regex mention("@[A-Za-z0-9]");
    EXPECT_FALSE(std::regex_search(prose, mention)) << bad << ":\n" << md;
    const std::string clean = render(
        [&] {
          verdict::Comparison d = c;
          d.version_changes = {{"nccl", "2.27.7", "x"}};
          d.incomplete_reason = d.capture.network = "x";
          d.warnings = {"x"};
          for (auto& key : d.keys) key.family = key.backend = key.op = key.reason = "x";
          d.keys[0].key = "coll/nccl/x";
          d.keys[1].key = "coll/nccl/x/16";
          return d;
        }(),
        ReportFormat::markdown, RenderOptions{});
    const std::string clean_html = render_gfm(clean);
    for (const char* tag :
         {"<h2", "<h3", "<h4", "<table", "<tr", "<td", "<details", "<blockquote"}) {
      const auto count = [&](const std::string& h) {
        std::size_t n = 0;
        for (auto at = h.find(tag); at != std::string::npos; at = h.find(tag, at + 1)) ++n;
        return n;
      };
      EXPECT_EQ(count(html), count(clean_html)) << bad << " changed the number of " << tag << ":\n"
                                                << md;
    }
  }
}

TEST(report_MarkupEscape, SlackTextMakesNoMentionLinkOrFormatting) {
  for (const std::string& bad :
       {std::string("<!channel> alert"), std::string("<!here|here>"), std::string("<@U012AB3CD>"),
        std::string("<https://evil.example|click>"), std::string("@channel @here @everyone"),
        std::string("*bold* _it_ ~s~ `code`"), std::string("a & b < c > d"),
        std::string("<!subteam^S123|@team>")}) {
    for (const std::string& out : {slack_text(bad), slack_code(bad)}) {
      EXPECT_EQ(out.find('<'), std::string::npos) << out;
      EXPECT_EQ(out.find('>'), std::string::npos) << out;
      EXPECT_EQ(std::regex_search(out, std::regex("@[A-Za-z]")) && out == slack_text(bad), false)
          << out;
      EXPECT_EQ(out.find('\n'), std::string::npos) << out;
    }
    const std::string text = slack_text(bad);
    EXPECT_FALSE(std::regex_search(text, std::regex("(^|[^\u200b])[*_~`]"))) << text;
    const std::string code = slack_code(bad);
    EXPECT_EQ(std::count(code.begin(), code.end(), '`'), 2) << code;
  }
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::report
