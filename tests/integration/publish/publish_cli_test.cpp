// `fabricgate publish` end to end: the real binary against real servers on loopback. What
// arrives (method, path, headers, body), retries on 5xx and refused connections, none on 4xx,
// timeouts on a hanging server, TLS verification with --ca-bundle, and that tokens reach the
// server but never stdout/stderr. The Pushgateway test reads the metrics back from a real one.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "harness/publish/http_client.hpp"
#include "tests/integration/bad_inputs/child_process.hpp"
#include "tests/integration/publish/background_process.hpp"
#include "tests/unit/gate/gate_fixtures.hpp"

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

namespace fs = std::filesystem;
using testing::json;

const std::string kSha = "0123456789abcdef0123456789abcdef01234567";
const std::string kWebhookToken = "whk-Tok3n-never-print";
const std::string kGithubToken = "ghs_Tok3nNeverPrinted";

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Variables that steer publish; each call sets exactly the ones it names and unsets the others, so
// the CI environment (GITHUB_SHA, proxies, GITHUB_STEP_SUMMARY) cannot leak into a test.
const std::vector<std::string> kSteering = {"GITHUB_TOKEN",
                                            "GITHUB_REPOSITORY",
                                            "GITHUB_SHA",
                                            "GITHUB_REF",
                                            "GITHUB_API_URL",
                                            "GITHUB_STEP_SUMMARY",
                                            "FABRICGATE_WEBHOOK_TOKEN",
                                            "FABRICGATE_WEBHOOK_URL",
                                            "FABRICGATE_PUSHGATEWAY_TOKEN",
                                            "http_proxy",
                                            "https_proxy",
                                            "HTTP_PROXY",
                                            "HTTPS_PROXY",
                                            "all_proxy",
                                            "ALL_PROXY"};

// The recording server: every request it saw, as parsed JSON lines.
class RecordingServer {
 public:
  RecordingServer(const fs::path& dir, const std::string& responses,
                  std::vector<std::string> extra = {})
      : port_file_(dir / "port"), log_(dir / "requests.jsonl") {
    fs::create_directories(dir);
    std::vector<std::string> argv = {"python3",           RECORDING_SERVER, "--port-file",
                                     port_file_.string(), "--log",          log_.string(),
                                     "--responses",       responses};
    argv.insert(argv.end(), extra.begin(), extra.end());
    process_.emplace(argv, dir / "server.log");
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!fs::exists(port_file_) && process_->running() &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (!fs::exists(port_file_))
      throw std::runtime_error("recording server did not start: " + slurp(dir / "server.log"));
    port_ = std::stoi(slurp(port_file_));
  }

  std::string url(const std::string& scheme = "http") const {
    return scheme + "://127.0.0.1:" + std::to_string(port_);
  }

  std::vector<json> requests() const {
    std::vector<json> out;
    std::istringstream in(slurp(log_));
    for (std::string line; std::getline(in, line);) {
      if (!line.empty()) out.push_back(json::parse(line));
    }
    return out;
  }

 private:
  fs::path port_file_;
  fs::path log_;
  int port_ = 0;
  std::optional<testing::BackgroundProcess> process_;
};

class publish_Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = testing::fresh_temp_dir("publish-cli");
    std::vector<fs::path> base;
    for (unsigned i = 1; i <= 3; ++i)
      base.push_back(write_run("base-" + std::to_string(i), 1.0, i));
    std::vector<std::string> argv = {FABRICGATE_CLI, "baseline", "create"};
    for (const fs::path& p : base) {
      argv.push_back("--from");
      argv.push_back(p.string());
    }
    argv.push_back("--baselines-dir");
    argv.push_back((root_ / "baselines").string());
    const testing::ChildResult made =
        testing::run_child(argv, root_, logs(), std::chrono::seconds(60), kSteering);
    ASSERT_EQ(made.exit_code, 0) << made.output;
    slow_run_ = write_run("slow", 1.0 / 0.9, 41);  // 64 MiB busbw -10 %: the gate fails
  }
  void TearDown() override { fs::remove_all(root_); }

  fs::path logs() {
    const fs::path l = root_ / "logs";
    fs::create_directories(l);
    return l;
  }

  fs::path write_run(const std::string& id, double slowdown, unsigned seed) {
    std::vector<json> results;
    for (const std::uint64_t bytes :
         {std::uint64_t{8192}, std::uint64_t{1} << 20, std::uint64_t{64} << 20}) {
      testing::ResultSpec s;
      s.bytes = bytes;
      const double t = 5.0 + static_cast<double>(bytes) / 2000.0;
      s.time_us = testing::noisy(bytes == (64u << 20) ? t * slowdown : t, 0.003, 5,
                                 seed * 7 + static_cast<unsigned>(bytes % 97));
      results.push_back(testing::make_result(s));
    }
    testing::RunSpec rs;
    rs.run_id = id;
    return testing::write_run_dir(root_ / "results", testing::make_run(rs, results));
  }

  // fabricgate publish RUN ARGS... with exactly the variables in `env` set (see kSteering).
  testing::ChildResult publish(const std::vector<std::string>& args,
                               const std::map<std::string, std::string>& env,
                               std::chrono::seconds limit = std::chrono::seconds(60)) {
    std::vector<std::string> argv = {FABRICGATE_CLI,
                                     "publish",
                                     slow_run_.string(),
                                     "--baselines-dir",
                                     (root_ / "baselines").string(),
                                     "--retry-delay",
                                     "0.05"};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<std::string> unset;
    for (const std::string& name : kSteering) {
      if (env.count(name) == 0) unset.push_back(name);
    }
    std::map<std::string, std::optional<std::string>> saved;
    for (const auto& [name, value] : env) {
      const char* old = std::getenv(name.c_str());
      saved[name] = old ? std::optional<std::string>(old) : std::nullopt;
      ::setenv(name.c_str(), value.c_str(), 1);
    }
    testing::ChildResult r = testing::run_child(argv, root_, logs(), limit, unset);
    for (const auto& [name, value] : saved) {
      if (value) {
        ::setenv(name.c_str(), value->c_str(), 1);
      } else {
        ::unsetenv(name.c_str());
      }
    }
    return r;
  }

  json slow_run_json() const { return json::parse(slurp(slow_run_ / "run.json")); }

  fs::path root_;
  fs::path slow_run_;
};

std::string header(const json& request, const std::string& name) {
  const json& h = request.at("headers");
  return h.contains(name) ? h.at(name).get<std::string>() : "<absent>";
}

TEST_F(publish_Cli, WebhookGetsSlackJsonWithTheBearerTokenAndTheGateFailureDoesNotFailPublish) {
  RecordingServer server(root_ / "srv", "200");
  const auto r = publish({"--to", "webhook=" + server.url() + "/hooks/fabric"},
                         {{"FABRICGATE_WEBHOOK_TOKEN", kWebhookToken}});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("fabricgate: published slow → webhook http://127.0.0.1:"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find(kWebhookToken), std::string::npos) << r.output;
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 1u);
  const json& q = requests[0];
  EXPECT_EQ(q.at("method"), "POST");
  EXPECT_EQ(q.at("path"), "/hooks/fabric");
  EXPECT_EQ(header(q, "Authorization"), "Bearer " + kWebhookToken);
  EXPECT_EQ(header(q, "Content-Type"), "application/json");
  EXPECT_EQ(header(q, "User-Agent").rfind("fabricgate/", 0), 0u);
  const json body = json::parse(q.at("body").get<std::string>());
  const std::string text = body.at("text");
  EXPECT_EQ(text.rfind("*fabricgate FAIL: 1 of 3 keys fail the gate", 0), 0u) << text;
  EXPECT_NE(text.find("*REGRESSION* `coll/mpi/all_reduce/float32/sum/bytes:67108864/ranks:2/oop`"),
            std::string::npos)
      << text;
  EXPECT_EQ(body.at("fabricgate").at("verdict"), "fail");
  EXPECT_EQ(body.at("fabricgate").at("run_id"), "slow");
}

TEST_F(publish_Cli, GithubStatusAndPullRequestCommentReachTheApi) {
  RecordingServer server(root_ / "srv", "201");
  const auto r = publish({"--to", "github-status", "--to", "github-comment"},
                         {{"GITHUB_TOKEN", kGithubToken},
                          {"GITHUB_API_URL", server.url() + "/api/v3"},
                          {"GITHUB_REPOSITORY", "octo/fabric"},
                          {"GITHUB_SHA", kSha},
                          {"GITHUB_REF", "refs/pull/17/merge"}});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.find(kGithubToken), std::string::npos) << r.output;
  auto requests = server.requests();
  ASSERT_EQ(requests.size(), 2u);
  // The uploads run side by side under one deadline: they may arrive in either order.
  if (requests[0].at("path") != "/api/v3/repos/octo/fabric/statuses/" + kSha)
    std::swap(requests[0], requests[1]);
  EXPECT_EQ(requests[0].at("path"), "/api/v3/repos/octo/fabric/statuses/" + kSha);
  EXPECT_EQ(requests[1].at("path"), "/api/v3/repos/octo/fabric/issues/17/comments");
  for (const json& q : requests) {
    EXPECT_EQ(q.at("method"), "POST");
    EXPECT_EQ(header(q, "Authorization"), "Bearer " + kGithubToken);
    EXPECT_EQ(header(q, "Accept"), "application/vnd.github+json");
    EXPECT_EQ(header(q, "X-GitHub-Api-Version"), "2022-11-28");
  }
  const json status = json::parse(requests[0].at("body").get<std::string>());
  EXPECT_EQ(status.at("state"), "failure");
  EXPECT_EQ(status.at("context"), "fabricgate/cpu-test-2c/cpu");
  EXPECT_LE(status.at("description").get<std::string>().size(), 140u);
  const std::string comment = json::parse(requests[1].at("body").get<std::string>()).at("body");
  EXPECT_NE(comment.find("## fabricgate :x: FAIL"), std::string::npos) << comment;
  EXPECT_NE(comment.find("REGRESSION"), std::string::npos);
}

TEST_F(publish_Cli, FiveHundredsAreRetriedWithBackoffUntilSuccess) {
  RecordingServer server(root_ / "srv", "500,502,201");
  const auto r = publish({"--to", "webhook=" + server.url() + "/h"}, {});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(server.requests().size(), 3u);
}

TEST_F(publish_Cli, PersistentFiveHundredIsExitThreeNamingTargetStatusAndBodyWithTheTokenRedacted) {
  RecordingServer server(root_ / "srv", "500", {"--echo-auth"});
  const auto r = publish({"--to", "webhook=" + server.url() + "/h", "--attempts", "3"},
                         {{"FABRICGATE_WEBHOOK_TOKEN", kWebhookToken}});
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_EQ(server.requests().size(), 3u);
  EXPECT_NE(r.output.find("publish failed: slow → webhook " + server.url() +
                          ": HTTP 500 after 3 attempts; response: "),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("you sent Authorization: Bearer ***"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find(kWebhookToken), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("the gate's verdict is unchanged; exit 3"), std::string::npos);
}

TEST_F(publish_Cli, FourHundredsAreNotRetried) {
  RecordingServer server(root_ / "srv", "404");
  const auto r = publish({"--to", "webhook=" + server.url() + "/gone"}, {});
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_EQ(server.requests().size(), 1u);
  EXPECT_NE(r.output.find("HTTP 404 after 1 attempt (not retried)"), std::string::npos) << r.output;
}

TEST_F(publish_Cli, HangingServerTimesOutWithinTheBound) {
  RecordingServer server(root_ / "srv", "hang", {"--hang-seconds", "20"});
  const auto start = std::chrono::steady_clock::now();
  const auto r =
      publish({"--to", "webhook=" + server.url() + "/slow", "--timeout", "1", "--attempts", "2"},
              {}, std::chrono::seconds(30));
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_EQ(server.requests().size(), 2u);
  EXPECT_LT(elapsed, 15.0) << "two 1 s attempts must not wait for the 20 s hang";
  EXPECT_NE(r.output.find("timed out"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("after 2 attempts"), std::string::npos) << r.output;
}

// A TCP listener on loopback that accepts and never answers (a wedged server, a tarpit).
class SilentListener {
 public:
  SilentListener() {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t len = sizeof a;
    getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    listen(fd_, 64);
    thread_ = std::thread([this] {
      while (!stop_) {
        const int c = accept(fd_, nullptr, nullptr);
        if (c < 0) continue;
        held_.push_back(c);
        ++accepted_;
      }
    });
  }
  ~SilentListener() {
    stop_ = true;
    shutdown(fd_, SHUT_RDWR);
    thread_.join();
    close(fd_);
    for (const int c : held_) close(c);
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  int accepted() const { return accepted_; }

 private:
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> accepted_{0};
  std::vector<int> held_;
  std::thread thread_;
};

// One deadline bounds the whole step: four uploads to servers that never answer or refuse, each
// allowed 30 s per request and 3 attempts with long waits, end together by --publish-timeout.
TEST_F(publish_Cli, DeadServersCostAtMostThePublishTimeoutForAllUploads) {
  SilentListener silent;
  const int closed = testing::free_loopback_port();
  struct Case {
    std::vector<std::string> args;
    double bound;
  };
  const std::vector<Case> cases = {
      {{"--to", "webhook=" + silent.url() + "/a", "--to", "webhook=" + silent.url() + "/b", "--to",
        "pushgateway=" + silent.url(), "--to",
        "pushgateway=http://127.0.0.1:" + std::to_string(closed), "--publish-timeout", "3"},
       3},
      {{"--to", "webhook=" + silent.url() + "/many", "--to",
        "pushgateway=http://127.0.0.1:" + std::to_string(closed), "--attempts", "10",
        "--publish-timeout", "2"},
       2},
      {{"--to", "webhook=" + silent.url() + "/c", "--publish-timeout", "2", "--connect-timeout",
        "60", "--timeout", "600"},
       2},
  };
  for (const Case& c : cases) {
    const auto start = std::chrono::steady_clock::now();
    const auto r = publish(c.args, {}, std::chrono::seconds(90));
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_FALSE(r.timed_out);
    EXPECT_EQ(r.exit_code, 3) << r.output;
    EXPECT_LT(elapsed, c.bound + 4.0) << "the publish step outlived its deadline\n" << r.output;
    EXPECT_NE(r.output.find("--publish-timeout"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("the gate's verdict is unchanged"), std::string::npos) << r.output;
  }
  EXPECT_GE(silent.accepted(), 3) << "the uploads to the silent server ran side by side";
}

TEST_F(publish_Cli, ACaBundleThatIsNoPemIsExitTwoBeforeAnyAttempt) {
  RecordingServer server(root_ / "srv", "200");
  const fs::path empty = root_ / "empty.pem";
  std::ofstream(empty).flush();
  const fs::path text = root_ / "text.pem";
  std::ofstream(text) << "not a certificate\n";
  const fs::path key_only = root_ / "key.pem";
  std::ofstream(key_only) << "-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n";
  const fs::path cut = root_ / "cut.pem";
  std::ofstream(cut) << "-----BEGIN CERTIFICATE-----\nMIIB\n";
  for (const fs::path& bad : {empty, text, key_only, cut, root_ / "missing.pem", root_}) {
    const auto r =
        publish({"--to", "webhook=" + server.url() + "/h", "--ca-bundle", bad.string()}, {});
    EXPECT_EQ(r.exit_code, 2) << bad << "\n" << r.output;
    EXPECT_NE(r.output.find("ca-bundle"), std::string::npos) << r.output;
  }
  EXPECT_EQ(server.requests().size(), 0u) << "nothing is sent before the bundle is checked";
}

// The Pushgateway payload as pushed (the body the recording server saw) passes Prometheus's own
// linter, `promtool check metrics` (Debian's prometheus package; issue 56 item 3): types, HELP,
// names and label syntax, exit 0 with no finding; and promtool does fail a malformed payload.
TEST_F(publish_Cli, ThePushgatewayPayloadPassesPromtoolCheckMetrics) {
  const std::string promtool = "/usr/bin/promtool";
  if (!fs::exists(promtool))
    GTEST_SKIP() << promtool << " not installed (apt-get install prometheus; ci/bootstrap does)";
  RecordingServer server(root_ / "srv", "200");
  const auto r = publish({"--to", "pushgateway=" + server.url()}, {});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  ASSERT_EQ(server.requests().size(), 1u);
  const std::string body = server.requests().front().at("body").get<std::string>();
  ASSERT_NE(body.find("fabricgate_gate_failed"), std::string::npos) << body;
  const auto check = [&](const std::string& payload) {
    std::ofstream(root_ / "payload.prom") << payload;
    fs::create_directories(root_ / "promtool");
    return testing::run_child(
        {"/bin/sh", "-c",
         promtool + " check metrics < '" + (root_ / "payload.prom").string() + "'"},
        root_, root_ / "promtool", std::chrono::seconds(60), {});
  };
  const auto linted = check(body);
  EXPECT_EQ(linted.exit_code, 0) << linted.output << "\n" << body;
  EXPECT_TRUE(linted.output.empty()) << "promtool findings:\n" << linted.output;
  const auto broken = check("fabricgate_gate_failed{platform=\"x} 1\n");
  EXPECT_NE(broken.exit_code, 0) << "promtool accepted a malformed payload";
}

TEST_F(publish_Cli, RefusedConnectionsAreRetriedThenExitThree) {
  const int port = testing::free_loopback_port();  // nothing listens there
  const auto r = publish({"--to", "pushgateway=http://127.0.0.1:" + std::to_string(port)}, {});
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_NE(r.output.find("after 3 attempts"), std::string::npos) << r.output;
}

TEST_F(publish_Cli, EveryTargetIsTriedWhenOneFails) {
  RecordingServer good(root_ / "good", "200");
  RecordingServer bad(root_ / "bad", "403");
  const auto r =
      publish({"--to", "webhook=" + bad.url() + "/x", "--to", "webhook=" + good.url() + "/y"}, {});
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_EQ(bad.requests().size(), 1u);
  EXPECT_EQ(good.requests().size(), 1u);
  EXPECT_NE(r.output.find("1 of 2 uploads failed"), std::string::npos) << r.output;
}

TEST_F(publish_Cli, MissingGithubTokenIsExitTwoBeforeAnythingIsSent) {
  RecordingServer server(root_ / "srv", "201");
  const auto r = publish({"--to", "webhook=" + server.url() + "/h", "--to", "github-status"},
                         {{"GITHUB_API_URL", server.url()},
                          {"GITHUB_REPOSITORY", "octo/fabric"},
                          {"GITHUB_SHA", kSha}});
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("$GITHUB_TOKEN or --token-file github=FILE"), std::string::npos)
      << r.output;
  EXPECT_TRUE(server.requests().empty());
  EXPECT_EQ(publish({"--to", "carrier-pigeon=http://x"}, {}).exit_code, 2);
}

TEST_F(publish_Cli, TokenFileAndVerboseShowRequestsButNeverTheToken) {
  RecordingServer server(root_ / "srv", "200");
  const fs::path token_file = root_ / "webhook.token";
  std::ofstream(token_file) << kWebhookToken << "\n";
  const auto r = publish({"--to", "webhook=" + server.url() + "/h", "--token-file",
                          "webhook=" + token_file.string(), "--verbose"},
                         {});
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("Authorization: ***"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("attempt 1/3: HTTP 200"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find(kWebhookToken), std::string::npos) << r.output;
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(header(server.requests()[0], "Authorization"), "Bearer " + kWebhookToken);
}

TEST_F(publish_Cli, TlsIsVerifiedAndCaBundleTrustsAPrivateCertificate) {
  const std::string openssl = "/usr/bin/openssl";
  if (!fs::exists(openssl)) GTEST_SKIP() << "openssl not installed: cannot make a test certificate";
  const fs::path cert = root_ / "cert.pem";
  const fs::path key = root_ / "key.pem";
  const testing::ChildResult made =
      testing::run_child({openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                          "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                          "-keyout", key.string(), "-out", cert.string()},
                         root_, logs(), std::chrono::seconds(60), {});
  ASSERT_EQ(made.exit_code, 0) << made.output;
  RecordingServer server(root_ / "srv", "200", {"--cert", cert.string(), "--key", key.string()});

  const auto untrusted = publish({"--to", "webhook=" + server.url("https") + "/h"}, {});
  EXPECT_EQ(untrusted.exit_code, 3) << untrusted.output;
  EXPECT_NE(untrusted.output.find("(not retried)"), std::string::npos) << untrusted.output;
  EXPECT_TRUE(server.requests().empty()) << "no HTTP request may pass an unverified handshake";

  const auto trusted =
      publish({"--to", "webhook=" + server.url("https") + "/h", "--ca-bundle", cert.string()}, {});
  EXPECT_EQ(trusted.exit_code, 0) << trusted.output;
  EXPECT_EQ(server.requests().size(), 1u);
}

// The Pushgateway as deployed: push, read /metrics back, check values and labels.
std::string scrape(int port) {
  const publish::HttpClient client({});
  const publish::HttpResponse r =
      client.send({"GET", "http://127.0.0.1:" + std::to_string(port) + "/metrics", {}, ""});
  return r.transport_ok && r.status == 200 ? r.body : "";
}

// The sample line of `metric` whose labels include every `labels` entry, or "".
std::string sample(const std::string& metrics, const std::string& metric,
                   const std::vector<std::string>& labels) {
  std::istringstream in(metrics);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(metric + "{", 0) != 0) continue;
    bool all = true;
    for (const std::string& l : labels) all = all && line.find(l) != std::string::npos;
    if (all) return line;
  }
  return "";
}

double value_of(const std::string& line) { return std::stod(line.substr(line.rfind(' ') + 1)); }

// A real Pushgateway on a free loopback port; returns its port (0 when it did not start).
int start_pushgateway(const std::string& binary, std::optional<testing::BackgroundProcess>& gateway,
                      const fs::path& log) {
  int port = 0;
  for (int attempt = 0; attempt < 3 && port == 0;
       ++attempt) {  // the free port may be taken meanwhile
    const int candidate = testing::free_loopback_port();
    gateway.emplace(
        std::vector<std::string>{binary,
                                 "--web.listen-address=127.0.0.1:" + std::to_string(candidate),
                                 "--persistence.file=", "--log.level=warn"},
        log);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (gateway->running() && std::chrono::steady_clock::now() < deadline) {
      if (!scrape(candidate).empty()) {
        port = candidate;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    if (port == 0) gateway->stop();
  }
  return port;
}

TEST_F(publish_Cli, PushgatewayServesTheFiguresWithPlatformHostSuiteAndKeyLabels) {
  const std::string binary = "/usr/bin/prometheus-pushgateway";
  if (!fs::exists(binary))
    GTEST_SKIP() << binary << " not installed (apt-get install prometheus-pushgateway)";
  std::optional<testing::BackgroundProcess> gateway;
  const int port = start_pushgateway(binary, gateway, root_ / "pushgateway.log");
  ASSERT_NE(port, 0) << "pushgateway did not start: " << slurp(root_ / "pushgateway.log");
  const std::string url = "http://127.0.0.1:" + std::to_string(port);

  const auto r = publish({"--to", "pushgateway=" + url}, {});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string metrics = scrape(port);
  const std::string group = "platform=\"cpu-test-2c\"";
  const std::vector<std::string> run_labels = {"job=\"fabricgate\"", group, "host=\"h\"",
                                               "suite=\"cpu\"", "scenario=\"default\""};
  const json run = slow_run_json();
  for (const json& b : run.at("benchmarks")) {
    auto labels = run_labels;
    labels.push_back("key=\"" + b.at("key").get<std::string>() + "\"");
    const std::string busbw = sample(metrics, "fabricgate_busbw_gbps", labels);
    ASSERT_FALSE(busbw.empty()) << b.at("key") << "\n" << metrics;
    EXPECT_DOUBLE_EQ(value_of(busbw), b.at("busbw_GBps").get<double>());
    const std::string time = sample(metrics, "fabricgate_time_seconds", labels);
    ASSERT_FALSE(time.empty()) << metrics;
    EXPECT_DOUBLE_EQ(value_of(time), b.at("time_us").get<double>() / 1e6);
  }
  const std::string failed = sample(metrics, "fabricgate_gate_failed", run_labels);
  ASSERT_FALSE(failed.empty()) << metrics;
  EXPECT_EQ(value_of(failed), 1.0);
  EXPECT_EQ(value_of(sample(
                metrics, "fabricgate_key_failed",
                {group, "key=\"coll/mpi/all_reduce/float32/sum/bytes:67108864/ranks:2/oop\""})),
            1.0);
  EXPECT_EQ(value_of(sample(metrics, "fabricgate_keys", {group, "verdict=\"REGRESSION\""})), 1.0);

  // A second push to the same group replaces it (PUT): a passing rerun clears gate_failed.
  slow_run_ = write_run("rerun", 1.0, 40);  // the seed gate_cli_test passes with
  const auto again = publish({"--to", "pushgateway=" + url}, {});
  ASSERT_EQ(again.exit_code, 0) << again.output;
  const std::string after = scrape(port);
  EXPECT_EQ(value_of(sample(after, "fabricgate_gate_failed", run_labels)), 0.0) << after;
  EXPECT_TRUE(sample(after, "fabricgate_keys", {group, "verdict=\"REGRESSION\""}).empty()) << after;
  gateway->stop();
}

// What ci/grafana/fabricgate-dashboard.json asks Prometheus for: every fabricgate_* metric and
// every label its queries and variables name (selectors, by (...), label_values(..., label)).
struct DashboardQueries {
  std::set<std::string> metrics;
  std::set<std::string> labels;
};

void collect_queries(const json& node, DashboardQueries& q) {
  if (node.is_object()) {
    for (const auto& [name, value] : node.items()) {
      if ((name == "expr" || name == "definition" || name == "query") && value.is_string()) {
        const std::string text = value.get<std::string>();
        static const std::regex metric("fabricgate_[a-z_]+");
        static const std::regex selector("([a-z_]+)=~?\"");
        static const std::regex by("by \\(([^)]*)\\)");
        static const std::regex values("label_values\\([^)]*\\)?[^,]*, *([a-z_]+)\\)");
        for (std::sregex_iterator it(text.begin(), text.end(), metric), end; it != end; ++it)
          q.metrics.insert(it->str());
        for (std::sregex_iterator it(text.begin(), text.end(), selector), end; it != end; ++it)
          q.labels.insert((*it)[1].str());
        for (std::sregex_iterator it(text.begin(), text.end(), by), end; it != end; ++it) {
          std::istringstream names(std::regex_replace((*it)[1].str(), std::regex(","), " "));
          for (std::string n; names >> n;) q.labels.insert(n);
        }
        for (std::sregex_iterator it(text.begin(), text.end(), values), end; it != end; ++it)
          q.labels.insert((*it)[1].str());
      } else {
        collect_queries(value, q);
      }
    }
  } else if (node.is_array()) {
    for (const json& item : node) collect_queries(item, q);
  }
}

// Metric names and label names of a /metrics scrape.
DashboardQueries published_by(const std::string& metrics) {
  DashboardQueries p;
  std::istringstream in(metrics);
  static const std::regex label("([a-zA-Z_]+)=\"");
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    p.metrics.insert(line.substr(0, line.find_first_of("{ ")));
    const std::size_t open = line.find('{');
    if (open == std::string::npos) continue;
    const std::string labels = line.substr(open, line.rfind('}') - open);
    for (std::sregex_iterator it(labels.begin(), labels.end(), label), end; it != end; ++it)
      p.labels.insert((*it)[1].str());
  }
  return p;
}

std::vector<std::string> not_published(const DashboardQueries& asked,
                                       const DashboardQueries& published) {
  std::vector<std::string> out;
  for (const std::string& m : asked.metrics)
    if (!published.metrics.count(m)) out.push_back("metric " + m);
  for (const std::string& l : asked.labels)
    if (!published.labels.count(l)) out.push_back("label " + l);
  return out;
}

// The Grafana dashboard of ci/grafana queries only what `fabricgate publish` pushes: the names
// come from a real Pushgateway's /metrics after a real push, not from a list kept by hand.
TEST_F(publish_Cli, GrafanaDashboardQueriesOnlyPublishedMetrics) {
  const std::string binary = "/usr/bin/prometheus-pushgateway";
  if (!fs::exists(binary))
    GTEST_SKIP() << binary << " not installed (apt-get install prometheus-pushgateway)";
  std::optional<testing::BackgroundProcess> gateway;
  const int port = start_pushgateway(binary, gateway, root_ / "pushgateway.log");
  ASSERT_NE(port, 0) << "pushgateway did not start: " << slurp(root_ / "pushgateway.log");
  const auto r = publish({"--to", "pushgateway=http://127.0.0.1:" + std::to_string(port)}, {});
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const DashboardQueries published = published_by(scrape(port));
  gateway->stop();
  ASSERT_TRUE(published.metrics.count("fabricgate_busbw_gbps")) << "the push arrived";

  const fs::path source = FABRICGATE_SOURCE_DIR;
  const json dashboard = json::parse(slurp(source / "ci/grafana/fabricgate-dashboard.json"));
  DashboardQueries asked;
  collect_queries(dashboard, asked);
  EXPECT_GE(asked.metrics.size(), 9u) << "every figure and verdict fabricgate pushes is shown";
  EXPECT_TRUE(asked.labels.count("platform") && asked.labels.count("host") &&
              asked.labels.count("key"));
  const std::vector<std::string> missing = not_published(asked, published);
  std::string listed;
  for (const std::string& m : missing) listed += m + "\n";
  EXPECT_TRUE(missing.empty()) << "the dashboard queries what fabricgate never pushes:\n" << listed;

  // The check can fail: a panel asking for a metric nobody publishes is caught.
  DashboardQueries wrong;
  collect_queries(json::parse(R"({"targets":[{"expr":"fabricgate_not_published{rack=\"r1\"}"}]})"),
                  wrong);
  EXPECT_EQ(not_published(wrong, published),
            (std::vector<std::string>{"metric fabricgate_not_published", "label rack"}));

  // The panels name the data source the provisioning file defines.
  const std::string datasource =
      slurp(source / "ci/grafana/provisioning/datasources/fabricgate-prometheus.yaml");
  for (const json& panel : dashboard.at("panels"))
    EXPECT_NE(datasource.find("uid: " + panel.at("datasource").at("uid").get<std::string>()),
              std::string::npos)
        << panel.at("title");
  EXPECT_NE(slurp(source / "ci/grafana/provisioning/dashboards/fabricgate.yaml").find("type: file"),
            std::string::npos);
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
