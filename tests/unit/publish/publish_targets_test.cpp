// `--to` parsing, settings from options and environment, and the requests each target gets:
// URLs, headers, and that a token goes only to its own target and is listed as a secret.
#include "harness/publish/publish_targets.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/errors.hpp"
#include "harness/publish/publisher.hpp"
#include "tests/unit/publish/publish_test_data.hpp"

namespace fabricgate::publish {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

EnvLookup fake_env(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> std::optional<std::string> {
    const auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

const std::string kSha = "0123456789abcdef0123456789abcdef01234567";

std::string header(const Upload& u, const std::string& name) {
  for (const auto& [n, v] : u.request.headers) {
    if (n == name) return v;
  }
  return "<absent>";
}

TEST(publish_Targets, ParsesTheFourKinds) {
  TargetSpec t = parse_target("pushgateway=http://gw:9091/");
  EXPECT_EQ(t.kind, TargetKind::pushgateway);
  EXPECT_EQ(t.url, "http://gw:9091");
  t = parse_target("webhook=https://hooks.example/x");
  EXPECT_EQ(t.kind, TargetKind::webhook);
  EXPECT_EQ(parse_target("webhook").url, "");
  EXPECT_EQ(parse_target("github-status").kind, TargetKind::github_status);
  EXPECT_EQ(parse_target("github-comment").kind, TargetKind::github_comment);
}

TEST(publish_Targets, RejectsUnknownKindsMissingUrlsAndOtherSchemes) {
  EXPECT_THROW(parse_target("grafana=http://x"), InputError);
  EXPECT_THROW(parse_target("pushgateway"), InputError);
  EXPECT_THROW(parse_target("pushgateway=gw:9091"), InputError);
  EXPECT_THROW(parse_target("webhook=file:///etc/passwd"), InputError);
  EXPECT_THROW(parse_target("github-status=http://x"), InputError);
  try {
    parse_target("webhook=ftp://hooks.example/secret-path");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).find("secret-path"), std::string::npos)
        << "the URL is not echoed: " << e.what();
  }
}

TEST(publish_Targets, GithubNeedsTokenRepositoryCommitAndPullRequest) {
  const std::vector<TargetSpec> status{parse_target("github-status")};
  const std::vector<TargetSpec> comment{parse_target("github-comment")};
  std::map<std::string, std::string> env = {{"GITHUB_REPOSITORY", "octo/fabric"},
                                            {"GITHUB_SHA", kSha}};
  EXPECT_THROW(resolve_settings({}, status, fake_env(env)), InputError);  // no token
  env["GITHUB_TOKEN"] = "ghs_abc";
  const PublishSettings s = resolve_settings({}, status, fake_env(env));
  EXPECT_EQ(s.github_api, "https://api.github.com");
  EXPECT_EQ(s.github_repo, "octo/fabric");
  EXPECT_EQ(s.sha, kSha);
  EXPECT_EQ(s.tokens.at("github"), "ghs_abc");
  EXPECT_THROW(resolve_settings({}, comment, fake_env(env)), InputError);  // no PR
  env["GITHUB_REF"] = "refs/pull/12/merge";
  EXPECT_EQ(resolve_settings({}, comment, fake_env(env)).pr, 12);
  PublishOptions o;
  o.pr = 5;
  o.github_api = "http://127.0.0.1:1/";
  const PublishSettings explicit_pr = resolve_settings(o, comment, fake_env(env));
  EXPECT_EQ(explicit_pr.pr, 5);
  EXPECT_EQ(explicit_pr.github_api, "http://127.0.0.1:1");
  env["GITHUB_SHA"] = "abc";
  EXPECT_THROW(resolve_settings({}, status, fake_env(env)), InputError);
  env["GITHUB_SHA"] = kSha;
  env["GITHUB_REPOSITORY"] = "no-slash";
  EXPECT_THROW(resolve_settings({}, status, fake_env(env)), InputError);
}

TEST(publish_Targets, TokenFileWinsAndMustBeOneLine) {
  const auto dir = testing::fresh_temp_dir("publish-token");
  const auto file = dir / "token";
  std::ofstream(file) << "from-file-token\n";
  PublishOptions o;
  o.token_files = {"webhook=" + file.string()};
  const std::vector<TargetSpec> hook{parse_target("webhook=http://127.0.0.1:9/h")};
  EXPECT_EQ(resolve_settings(o, hook, fake_env({{"FABRICGATE_WEBHOOK_TOKEN", "env-token"}}))
                .tokens.at("webhook"),
            "from-file-token");
  std::ofstream(file) << "two words\n";
  EXPECT_THROW(resolve_settings(o, hook, fake_env({})), InputError);
  o.token_files = {"webhook=" + (dir / "missing").string()};
  EXPECT_THROW(resolve_settings(o, hook, fake_env({})), InputError);
  o.token_files = {"slack=" + file.string()};
  EXPECT_THROW(resolve_settings(o, hook, fake_env({})), InputError);
  EXPECT_THROW(
      resolve_settings({}, hook, fake_env({{"FABRICGATE_WEBHOOK_TOKEN", "a\r\nX-Injected: 1"}})),
      InputError);
  std::filesystem::remove_all(dir);
}

TEST(publish_Targets, PushgatewayPutsToTheEscapedGroupingPath) {
  RunRecord run = testing::publish_run();
  run.scenario = "algo:Ring";
  const verdict::Comparison c = testing::publish_comparison(run);
  const TargetSpec t = parse_target("pushgateway=http://gw:9091");
  const PublishSettings s = resolve_settings(
      {}, {t}, fake_env({{"FABRICGATE_PUSHGATEWAY_TOKEN", "pg-tok"}, {"GITHUB_TOKEN", "gh-tok"}}));
  const auto uploads = uploads_for(t, run, c, s);
  ASSERT_EQ(uploads.size(), 1u);
  const Upload& u = uploads[0];
  EXPECT_EQ(u.request.method, "PUT");
  EXPECT_EQ(u.request.url,
            "http://gw:9091/metrics/job/fabricgate/platform/cpu-test-2c/host/h/suite/cpu/scenario/"
            "algo%3ARing");
  EXPECT_EQ(header(u, "Authorization"), "Bearer pg-tok");
  EXPECT_EQ(u.secrets, std::vector<std::string>{"pg-tok"});
  EXPECT_EQ(u.target, "pushgateway http://gw:9091");
  EXPECT_NE(u.request.body.find("fabricgate_gate_failed 1"), std::string::npos);

  run.ranks[0].host = "a/b";
  EXPECT_THROW(uploads_for(t, run, c, s), InputError);
}

// Basic-auth credentials in a Pushgateway URL: user:password and the password alone are secrets
// of the upload, so an error page that echoes either shows neither.
TEST(publish_Targets, PushgatewayUserInformationIsASecret) {
  const RunRecord run = testing::publish_run();
  const verdict::Comparison c = testing::publish_comparison(run);
  for (const std::string url : {"http://alice:hunter2@gw:9091", "https://bob:hunter2@gw/prefix"}) {
    const TargetSpec t = parse_target("pushgateway=" + url);
    const PublishSettings s = resolve_settings({}, {t}, fake_env({}));
    const Upload u = uploads_for(t, run, c, s).at(0);
    EXPECT_EQ(u.target.find("hunter2"), std::string::npos) << u.target;
    for (const std::string& echoed :
         {std::string("401 for user alice:hunter2"), std::string("bad password hunter2"),
          "PUT " + u.request.url}) {
      const std::string shown = redact(echoed, u.secrets);
      EXPECT_EQ(shown.find("hunter2"), std::string::npos) << shown;
    }
  }
}

// --token-file KIND=TOKEN (the token given instead of a file) never echoes the token.
TEST(publish_Targets, ATokenGivenAsTokenFileIsNotEchoed) {
  const TargetSpec t = parse_target("pushgateway=http://gw:9091");
  for (const std::string& token : {"ghp_" + std::string(36, 'Z'), std::string("plainsecret123"),
                                   std::string("/no/such/dir/plainsecret123")}) {
    PublishOptions o;
    o.token_files = {"pushgateway=" + token};
    try {
      resolve_settings(o, {t}, fake_env({}));
      ADD_FAILURE() << "accepted " << token;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).find("plainsecret123"), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find("ZZZZ"), std::string::npos) << e.what();
    }
  }
}

TEST(publish_Targets, WebhookUrlIsASecretAndGithubTokenStaysWithGithub) {
  const RunRecord run = testing::publish_run();
  const verdict::Comparison c = testing::publish_comparison(run);
  const TargetSpec t = parse_target("webhook");
  const auto env = fake_env({{"FABRICGATE_WEBHOOK_URL", "https://hooks.example/T0/B0/s3cret"},
                             {"GITHUB_TOKEN", "gh-tok"}});
  const PublishSettings s = resolve_settings({}, {t}, env);
  const Upload u = uploads_for(t, run, c, s).at(0);
  EXPECT_EQ(u.request.url, "https://hooks.example/T0/B0/s3cret");
  EXPECT_EQ(u.target, "webhook https://hooks.example");
  EXPECT_EQ(header(u, "Authorization"), "<absent>") << "the GitHub token must not go to a webhook";
  EXPECT_EQ(header(u, "Content-Type"), "application/json");
  EXPECT_EQ(u.secrets,
            (std::vector<std::string>{"https://hooks.example/T0/B0/s3cret", "/T0/B0/s3cret"}));
  // A 404 page that echoes only the path, as many servers do, shows no part of the credential.
  EXPECT_EQ(redact("404: no route for /T0/B0/s3cret", u.secrets), "404: no route for ***");
  EXPECT_EQ(nlohmann::json::parse(u.request.body).at("fabricgate").at("verdict"), "fail");
  EXPECT_THROW(resolve_settings({}, {t}, fake_env({})), InputError);  // no URL anywhere
}

TEST(publish_Targets, GithubStatusAndCommentRequests) {
  const RunRecord run = testing::publish_run();
  const verdict::Comparison c = testing::publish_comparison(run);
  const std::vector<TargetSpec> targets{parse_target("github-status"),
                                        parse_target("github-comment")};
  const auto env = fake_env({{"GITHUB_TOKEN", "gh-tok"},
                             {"GITHUB_REPOSITORY", "octo/fabric"},
                             {"GITHUB_SHA", kSha},
                             {"GITHUB_REF", "refs/pull/7/merge"},
                             {"GITHUB_API_URL", "https://ghe.example/api/v3"}});
  const PublishSettings s = resolve_settings({}, targets, env);
  const Upload status = uploads_for(targets[0], run, c, s).at(0);
  EXPECT_EQ(status.request.url, "https://ghe.example/api/v3/repos/octo/fabric/statuses/" + kSha);
  EXPECT_EQ(header(status, "Authorization"), "Bearer gh-tok");
  EXPECT_EQ(header(status, "Accept"), "application/vnd.github+json");
  const nlohmann::json sb = nlohmann::json::parse(status.request.body);
  EXPECT_EQ(sb.at("state"), "failure");
  EXPECT_EQ(sb.at("target_url"), "https://github.com/octo/fabric/actions/runs/9");
  const Upload comment = uploads_for(targets[1], run, c, s).at(0);
  EXPECT_EQ(comment.request.url, "https://ghe.example/api/v3/repos/octo/fabric/issues/7/comments");
  EXPECT_NE(nlohmann::json::parse(comment.request.body)
                .at("body")
                .get<std::string>()
                .find("## fabricgate"),
            std::string::npos);
  EXPECT_EQ(comment.secrets, std::vector<std::string>{"gh-tok"});
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::publish
