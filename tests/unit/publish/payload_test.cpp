// The pure payloads: Prometheus exposition text and grouping key, webhook JSON (Slack text),
// GitHub status and comment bodies.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "harness/publish/github_payload.hpp"
#include "harness/publish/pushgateway_payload.hpp"
#include "harness/publish/webhook_payload.hpp"
#include "tests/unit/publish/publish_test_data.hpp"

namespace fabricgate::publish {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST(publish_Pushgateway, LabelValuesAreEscapedPerTheExpositionFormat) {
  EXPECT_EQ(exposition_label_value("plain/key:1"), "plain/key:1");
  EXPECT_EQ(exposition_label_value("a\"b"), "a\\\"b");
  EXPECT_EQ(exposition_label_value("a\\b"), "a\\\\b");
  EXPECT_EQ(exposition_label_value("a\nb"), "a\\nb");
  EXPECT_EQ(exposition_label_value("\\\"\n"), "\\\\\\\"\\n");
}

TEST(publish_Pushgateway, NumbersRoundTripAndSpecialValuesUsePrometheusSpelling) {
  EXPECT_EQ(exposition_number(1.5), "1.5");
  EXPECT_EQ(exposition_number(0), "0");
  EXPECT_EQ(std::stod(exposition_number(0.1 + 0.2)), 0.1 + 0.2);
  EXPECT_EQ(std::stod(exposition_number(123456.789e10)), 123456.789e10);
  EXPECT_EQ(exposition_number(std::numeric_limits<double>::quiet_NaN()), "NaN");
  EXPECT_EQ(exposition_number(std::numeric_limits<double>::infinity()), "+Inf");
  EXPECT_EQ(exposition_number(-std::numeric_limits<double>::infinity()), "-Inf");
}

TEST(publish_Pushgateway, GroupingIsPlatformHostSuiteScenario) {
  RunRecord run = testing::publish_run();
  GroupingKey g = pushgateway_grouping(run);
  ASSERT_EQ(g.size(), 4u);
  EXPECT_EQ(g[0], (std::pair<std::string, std::string>{"platform", "cpu-test-2c"}));
  EXPECT_EQ(g[1], (std::pair<std::string, std::string>{"host", "h"}));
  EXPECT_EQ(g[2], (std::pair<std::string, std::string>{"suite", "cpu"}));
  EXPECT_EQ(g[3], (std::pair<std::string, std::string>{"scenario", "default"}));
  run.ranks.clear();
  run.scenario = "algo:Ring";
  g = pushgateway_grouping(run);
  EXPECT_EQ(g[1].second, "unknown");
  EXPECT_EQ(g[3].second, "algo:Ring");
}

TEST(publish_Pushgateway, DriftGaugeIsOneForADriftKey) {
  const RunRecord run = testing::publish_run();
  verdict::Comparison c = testing::publish_comparison(run);
  c.keys[1].verdict = verdict::Verdict::drift;
  const std::string text = pushgateway_exposition(run, c);
  const auto lines = lines_of(text);
  const std::string line =
      "fabricgate_key_drift{key=\"" + exposition_label_value(c.keys[1].key) + "\"} 1";
  EXPECT_NE(std::find(lines.begin(), lines.end(), line), lines.end()) << text;
  EXPECT_NE(text.find("# TYPE fabricgate_key_drift gauge"), std::string::npos);
}

// A run the gate could not judge (exit 3: a busy runner excused, a degraded runner) was published
// as gate_failed 0, which every dashboard and alert rule reads as a pass (issue 58).
TEST(publish_Pushgateway, ARunTheGateCouldNotJudgeIsNotPublishedAsAPass) {
  const RunRecord run = testing::publish_run();
  verdict::Comparison c = testing::publish_comparison(run);
  c.exit_code = ExitCode::infra_failure;
  c.runner_busy = true;
  const auto lines = lines_of(pushgateway_exposition(run, c));
  const auto has = [&](const std::string& line) {
    return std::find(lines.begin(), lines.end(), line) != lines.end();
  };
  EXPECT_TRUE(has("fabricgate_gate_failed NaN"));
  EXPECT_TRUE(has("fabricgate_gate_judged 0"));
  EXPECT_TRUE(has("fabricgate_gate_exit_code 3"));
  EXPECT_FALSE(has("fabricgate_gate_failed 0"));
  c.exit_code = ExitCode::pass;
  c.runner_busy = false;
  const auto passed = lines_of(pushgateway_exposition(run, c));
  EXPECT_NE(std::find(passed.begin(), passed.end(), "fabricgate_gate_failed 0"), passed.end());
  EXPECT_NE(std::find(passed.begin(), passed.end(), "fabricgate_gate_judged 1"), passed.end());
}

TEST(publish_Pushgateway, ExpositionHasOneFamilyBlockPerMetricAndTheRunsFigures) {
  const RunRecord run = testing::publish_run();
  const verdict::Comparison c = testing::publish_comparison(run);
  const std::string text = pushgateway_exposition(run, c);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  const BenchmarkResult& reduce = run.benchmarks[0];
  const BenchmarkResult& send = run.benchmarks[1];
  const std::string reduce_label = "{key=\"" + reduce.key + "\"}";
  const std::string send_label = "{key=\"" + send.key + "\"}";
  const auto lines = lines_of(text);
  const auto has = [&](const std::string& line) {
    return std::find(lines.begin(), lines.end(), line) != lines.end();
  };
  EXPECT_TRUE(
      has("fabricgate_time_seconds" + reduce_label + " " + exposition_number(reduce.time_us / 1e6)))
      << text;
  EXPECT_TRUE(
      has("fabricgate_busbw_gbps" + reduce_label + " " + exposition_number(*reduce.busbw_GBps)))
      << text;
  EXPECT_TRUE(has("fabricgate_algbw_gbps" + send_label + " " + exposition_number(send.algbw_GBps)))
      << text;
  EXPECT_TRUE(
      has("fabricgate_time_seconds" + send_label + " " + exposition_number(send.time_us / 1e6)))
      << text;
  EXPECT_TRUE(has("fabricgate_performance_ratio" + reduce_label + " 0.9")) << text;
  EXPECT_TRUE(has("fabricgate_key_failed" + reduce_label + " 1")) << text;
  EXPECT_TRUE(has("fabricgate_key_failed" + send_label + " 0")) << text;
  EXPECT_TRUE(has("fabricgate_key_drift" + reduce_label + " 0"))
      << text;  // a REGRESSION, not DRIFT
  EXPECT_TRUE(has("fabricgate_gate_failed 1")) << text;
  EXPECT_TRUE(has("fabricgate_gate_exit_code 1")) << text;
  EXPECT_TRUE(has("fabricgate_run_complete 1")) << text;
  EXPECT_TRUE(has("fabricgate_keys{verdict=\"REGRESSION\"} 1")) << text;
  EXPECT_TRUE(has("fabricgate_keys{verdict=\"INVALID\"} 1")) << text;
  // A point-to-point key has no busbw; an errored benchmark has no figures at all.
  EXPECT_EQ(text.find("fabricgate_busbw_gbps" + send_label), std::string::npos);
  EXPECT_EQ(text.find("fabricgate_time_seconds{key=\"" + run.benchmarks[2].key), std::string::npos);

  // Each family: HELP then TYPE exactly once, and all its samples directly after them.
  std::map<std::string, int> type_lines;
  std::string current;
  std::set<std::string> finished;
  for (const std::string& line : lines) {
    if (line.rfind("# HELP ", 0) == 0) continue;
    if (line.rfind("# TYPE ", 0) == 0) {
      current = line.substr(7, line.find(' ', 7) - 7);
      EXPECT_EQ(line, "# TYPE " + current + " gauge");
      ++type_lines[current];
      continue;
    }
    const std::string name = line.substr(0, line.find_first_of("{ "));
    EXPECT_EQ(name, current) << "sample outside its family block: " << line;
  }
  for (const auto& [name, n] : type_lines) EXPECT_EQ(n, 1) << name;
  EXPECT_EQ(type_lines.size(), 11u);  // nine families, the DRIFT gauge and gate_judged
}

TEST(publish_Pushgateway, KeysWithQuotesAreEscapedAndDuplicatesKeepTheFirst) {
  RunRecord run = testing::publish_run();
  run.benchmarks[0].key = "odd \"key\" \\ here";
  run.benchmarks.push_back(run.benchmarks[0]);
  run.benchmarks.back().time_us = 999;
  verdict::Comparison c = testing::publish_comparison(run);
  c.keys.clear();
  const std::string text = pushgateway_exposition(run, c);
  EXPECT_NE(text.find("fabricgate_time_seconds{key=\"odd \\\"key\\\" \\\\ here\"} " +
                      exposition_number(run.benchmarks[0].time_us / 1e6)),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find(" 0.000999\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("fabricgate_key_failed"),
            std::string::npos);  // no comparison keys, no family
}

TEST(publish_Webhook, TextHasHeadlineAndTopFailingKeysSlackEscaped) {
  const RunRecord run = testing::publish_run();
  const verdict::Comparison c = testing::publish_comparison(run);
  const nlohmann::json body = webhook_body(run, c);
  const std::string text = body.at("text").get<std::string>();
  EXPECT_EQ(text.rfind("*fabricgate " + slack_escape(c.headline()) + "*\n", 0), 0u) << text;
  EXPECT_NE(
      text.find("*REGRESSION* `" + run.benchmarks[0].key + "`: busbw -10 % &lt; -3 % tolerance"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("*INVALID*"), std::string::npos);
  EXPECT_EQ(text.find("within tolerance"), std::string::npos) << "passing keys are not listed";
  EXPECT_NE(text.find("<https://github.com/octo/fabric/actions/runs/9|CI run>"), std::string::npos)
      << text;

  const nlohmann::json& f = body.at("fabricgate");
  EXPECT_EQ(f.at("schema"), kWebhookSchema);
  EXPECT_EQ(f.at("verdict"), "fail");
  EXPECT_EQ(f.at("exit_code"), 1);
  EXPECT_EQ(f.at("run_id"), "run-pub");
  EXPECT_EQ(f.at("host"), "h");
  EXPECT_EQ(f.at("git_commit"), "abc123");
  ASSERT_EQ(f.at("failing").size(), 2u);
  EXPECT_EQ(f.at("failing")[0].at("verdict"), "REGRESSION");
  EXPECT_EQ(f.at("failing")[0].at("reason"), "busbw -10 % < -3 % tolerance");  // data unescaped
  EXPECT_EQ(f.at("counts").at("PASS"), 1);
}

// Run data (the CI link, host, suite, scenario, keys, reasons) makes no Slack mention, link or
// formatting: the only links and bold text in the message are the ones the payload writes.
TEST(publish_Webhook, RunDataMakesNoMentionLinkOrFormattingInSlackText) {
  const std::vector<std::string> hostile = {
      "<!channel>",          "x> <!here|here",
      "<@U024BE7LH>",        "<https://evil.example|click here>",
      "@channel wake up",    "*bold* _it_ ~s~",
      "`code` ```block```",  "a\n*INJECTED* line",
      "<!subteam^SAZ94GDB8>"};
  for (const std::string& bad : hostile) {
    RunRecord run = testing::publish_run();
    run.suite = bad;
    run.scenario = bad;
    run.ranks.front().host = bad;
    run.metadata["ci_run_url"] = "https://ci.example/run/1" + bad;
    verdict::Comparison c = testing::publish_comparison(run);
    for (auto& k : c.keys) k.reason = bad;
    c.keys.front().key = bad;
    const std::string text = webhook_body(run, c).at("text").get<std::string>();
    // Exactly the payload's own angle brackets: none (the CI link is refused as a link).
    EXPECT_EQ(text.find('<'), std::string::npos) << bad << ":\n" << text;
    EXPECT_EQ(text.find('>'), std::string::npos) << bad << ":\n" << text;
    EXPECT_FALSE(std::regex_search(text, std::regex("@(channel|here|everyone)"))) << text;
    EXPECT_EQ(text.find("\n*INJECTED*"), std::string::npos) << text;
    // Outside code spans (where Slack formats nothing) no formatting comes from data.
    const std::string prose = std::regex_replace(text, std::regex("`[^`]*`"), "");
    EXPECT_EQ(prose.find("*bold*"), std::string::npos) << text;
    EXPECT_EQ(prose.find("_it_"), std::string::npos) << text;
  }
  // A plain CI URL is still a link; one with & keeps it escaped inside the link.
  RunRecord run = testing::publish_run();
  run.metadata["ci_run_url"] = "https://ci.example/run?a=1&b=2";
  const std::string text =
      webhook_body(run, testing::publish_comparison(run)).at("text").get<std::string>();
  EXPECT_NE(text.find("<https://ci.example/run?a=1&amp;b=2|CI run>"), std::string::npos) << text;
}

TEST(publish_Webhook, OnlyTheTopKeysAreListedAndTheRestCounted) {
  const RunRecord run = testing::publish_run();
  const verdict::Comparison c = testing::publish_comparison(run);
  const std::string text = webhook_body(run, c, 1).at("text").get<std::string>();
  EXPECT_NE(text.find("*REGRESSION*"), std::string::npos);
  EXPECT_EQ(text.find("*INVALID*"), std::string::npos);
  EXPECT_NE(text.find("… and 1 more failing keys"), std::string::npos) << text;
  EXPECT_EQ(slack_escape("a<b>&c"), "a&lt;b&gt;&amp;c");
}

TEST(publish_Github, StatusStateFollowsTheExitCode) {
  const RunRecord run = testing::publish_run();
  verdict::Comparison c = testing::publish_comparison(run);
  const std::string context = github_status_context(run);
  EXPECT_EQ(context, "fabricgate/cpu-test-2c/cpu");
  nlohmann::json s = github_status_body(c, context, "https://ci/run/1");
  EXPECT_EQ(s.at("state"), "failure");
  EXPECT_EQ(s.at("context"), context);
  EXPECT_EQ(s.at("target_url"), "https://ci/run/1");
  c.exit_code = ExitCode::pass;
  EXPECT_EQ(github_status_body(c, context, "").at("state"), "success");
  EXPECT_FALSE(github_status_body(c, context, "").contains("target_url"));
  c.exit_code = ExitCode::infra_failure;
  EXPECT_EQ(github_status_body(c, context, "").at("state"), "error");
  c.exit_code = ExitCode::input_error;
  EXPECT_EQ(github_status_body(c, context, "").at("state"), "error");

  RunRecord control = run;
  control.scenario = "nvlink-off";
  EXPECT_EQ(github_status_context(control), "fabricgate/cpu-test-2c/cpu/nvlink-off");
}

TEST(publish_Github, DescriptionAndCommentAreCutAtCharacterBoundaries) {
  const std::string greek(200, 'a');
  EXPECT_EQ(cut_utf8("short", 140), "short");
  const std::string cut = cut_utf8(greek, 140);
  EXPECT_EQ(cut.size(), 140u);
  EXPECT_EQ(cut.substr(cut.size() - 3), "…");
  std::string multibyte;
  for (int i = 0; i < 100; ++i) multibyte += "µ";  // 2 bytes each
  const std::string m = cut_utf8(multibyte, 140);
  EXPECT_LE(m.size(), 140u);
  EXPECT_EQ((m.size() - 3) % 2, 0u) << "no µ split in half";

  const std::string markdown(kGithubCommentMax * 2, 'x');
  const nlohmann::json comment = github_comment_body("fabricgate/p/s", markdown);
  const std::string body = comment.at("body").get<std::string>();
  EXPECT_LE(body.size(), kGithubCommentMax);
  EXPECT_EQ(body.rfind("<!-- fabricgate/p/s -->\n", 0), 0u);
}

TEST(publish_Github, PullRequestNumberComesFromPullRefsOnly) {
  EXPECT_EQ(pull_request_from_ref("refs/pull/42/merge"), 42);
  EXPECT_EQ(pull_request_from_ref("refs/pull/7/head"), 7);
  EXPECT_EQ(pull_request_from_ref("refs/heads/main"), std::nullopt);
  EXPECT_EQ(pull_request_from_ref("refs/pull/x/merge"), std::nullopt);
  EXPECT_EQ(pull_request_from_ref("refs/pull/0/merge"), std::nullopt);
  EXPECT_EQ(pull_request_from_ref("refs/pull/12abc"), std::nullopt);
  EXPECT_EQ(pull_request_from_ref(""), std::nullopt);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::publish
