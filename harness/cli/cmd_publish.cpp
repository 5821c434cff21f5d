// fabricgate publish RUN... --to TARGET...: send each run's figures and gate verdict to a
// Prometheus Pushgateway, a webhook (Slack-compatible JSON) and/or GitHub (commit status, PR
// comment). Publishing reports the gate; it never changes it: the exit code says whether the
// uploads worked, not whether the run passed.
// Exit: 0 every upload succeeded, 2 bad input (run, target, missing token/repository/commit,
// a --ca-bundle that holds no PEM certificate), 3 an upload failed after its retries or did not
// finish by the publish deadline. The uploads run side by side under one deadline
// (--publish-timeout): a dead server costs the step at most that long, whatever the targets.
#include <CLI/CLI.hpp>
#include <chrono>
#include <fstream>
#include <future>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/regular_file.hpp"
#include "core/text_escape.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/comparison_output.hpp"
#include "harness/cli/store_hook.hpp"
#include "harness/model/baseline_location.hpp"
#include "harness/publish/publish_targets.hpp"

#ifndef FABRICGATE_VERSION
#define FABRICGATE_VERSION "0"
#endif

namespace fabricgate::cli {

namespace {

struct PublishArgs {
  std::vector<std::string> runs;
  std::vector<std::string> to;
  std::string baseline;
  std::string baselines_dir = kBaselinesDir;
  bool force = false;
  bool force_platform = false;
  publish::PublishOptions options;
  long pr = 0;
  std::string ca_bundle;
  double connect_timeout_s = 10;
  double timeout_s = 30;
  double publish_timeout_s = 30;
  int attempts = 3;
  double retry_delay_s = 1;
  bool verbose = false;
  std::string gate = kDefaultGate;
};

std::chrono::milliseconds ms(double seconds) {
  return std::chrono::milliseconds(static_cast<long long>(seconds * 1000.0));
}

// A CA bundle is checked before anything is judged or sent: a missing, unreadable or non-PEM
// file is bad input (exit 2), not a TLS failure found after the first attempt.
void check_ca_bundle(const std::string& path) {
  if (path.empty()) return;
  // A regular file: a FIFO would block here, and curl after (regular_file.hpp).
  const RegularFileText read = read_regular_file(path, 16u << 20);
  if (!read.ok()) throw InputError(path, "", "a readable CA bundle (--ca-bundle): " + read.error);
  const std::string& text = read.text;
  const auto begin = text.find("-----BEGIN CERTIFICATE-----");
  if (begin == std::string::npos ||
      text.find("-----END CERTIFICATE-----", begin) == std::string::npos)
    throw InputError(path, "",
                     "PEM certificates (-----BEGIN CERTIFICATE----- ... -----END CERTIFICATE-----) "
                     "for --ca-bundle");
}

int run_publish(PublishArgs& a) {
  check_ca_bundle(a.ca_bundle);
  std::vector<publish::TargetSpec> targets;
  for (const std::string& spec : a.to) targets.push_back(publish::parse_target(spec));
  if (a.pr > 0) a.options.pr = a.pr;
  // Everything is checked (targets, tokens, runs, baselines) before the first byte is sent.
  const publish::PublishSettings settings =
      publish::resolve_settings(a.options, targets, publish::process_environment());
  std::vector<publish::Upload> uploads;
  for (const std::string& run : a.runs) {
    const GatedRun g = judge_run_files({run}, a.baseline, a.baselines_dir,
                                       compare_options(a.force, a.force_platform, a.gate), "",
                                       store::Access::read);
    report_history_failure(g.store_failure);
    for (const publish::TargetSpec& t : targets) {
      for (publish::Upload& u : publish::uploads_for(t, g.run, g.comparison, settings)) {
        u.target = g.run.run_id + " → " + u.target;
        uploads.push_back(std::move(u));
      }
    }
  }

  publish::HttpClientOptions client_options;
  client_options.connect_timeout = ms(a.connect_timeout_s);
  client_options.total_timeout = ms(a.timeout_s);
  client_options.ca_bundle = a.ca_bundle;
  client_options.user_agent = std::string("fabricgate/") + FABRICGATE_VERSION;
  const publish::HttpClient client(client_options);
  publish::RetryPolicy policy{a.attempts, ms(a.retry_delay_s), {}};
  policy.deadline = std::chrono::steady_clock::now() + ms(a.publish_timeout_s);

  // Side by side, each with its own verbose log, printed in order once all are done.
  std::vector<std::ostringstream> logs(uploads.size());
  std::vector<std::future<publish::UploadOutcome>> running;
  for (std::size_t i = 0; i < uploads.size(); ++i) {
    running.push_back(std::async(std::launch::async, [&, i] {
      return publish::deliver(client, uploads[i], policy, a.verbose ? &logs[i] : nullptr);
    }));
  }
  std::size_t failed = 0;
  bool deadline_reached = false;
  for (std::size_t i = 0; i < uploads.size(); ++i) {
    const publish::Upload& u = uploads[i];
    const publish::UploadOutcome outcome = running[i].get();
    std::cerr << logs[i].str();
    deadline_reached = deadline_reached || outcome.deadline_reached;
    if (outcome.ok) {
      std::cerr << "fabricgate: published " << u.target << " ("
                << report::printable(outcome.message) << ")\n";
    } else {
      ++failed;
      std::cerr << "fabricgate: publish failed: " << report::printable(outcome.message) << "\n";
    }
  }
  if (deadline_reached) {
    std::cerr << "fabricgate: the publish step stopped at its deadline (--publish-timeout "
              << a.publish_timeout_s << " s, for all uploads together)\n";
  }
  if (failed > 0) {
    std::cerr << "fabricgate: " << failed << " of " << uploads.size()
              << " uploads failed (the gate's verdict is unchanged; exit 3)\n";
    return static_cast<int>(ExitCode::infra_failure);
  }
  return static_cast<int>(ExitCode::pass);
}

}  // namespace

void add_publish_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<PublishArgs>();
  auto* cmd = app.add_subcommand("publish",
                                 "Publish runs and their gate verdicts (Pushgateway, webhook, "
                                 "GitHub); exit 0 uploaded, 3 an upload failed");
  cmd->footer(
      "Example:\n"
      "  fabricgate publish results/h200-x2/RUN_ID --to pushgateway=http://pushgateway:9091 --to "
      "github-status");
  cmd->add_option("run", a->runs, "Run directories (or run.json files)")->required();
  cmd->add_option(
         "--to", a->to,
         "Target, repeatable: pushgateway=URL | webhook[=URL] (default $FABRICGATE_WEBHOOK_URL) | "
         "github-status | github-comment")
      ->required();
  cmd->add_option("--gate", a->gate, kGateHelp)
      ->check(CLI::IsMember({"change", "fleet", "both"}))
      ->capture_default_str();
  cmd->add_option("--baseline", a->baseline,
                  "Baseline file (default: <baselines-dir>/<platform>/<suite>.json, else "
                  "<baselines-dir>/<platform>.json)");
  cmd->add_option("--baselines-dir", a->baselines_dir,
                  "Directory of <platform>/<suite>.json (and older <platform>.json) baselines")
      ->capture_default_str();
  cmd->add_flag("--force", a->force, "Compare even when the fingerprint identity differs");
  cmd->add_flag("--force-platform", a->force_platform,
                "Compare even when the run\'s platform key differs from the baseline\'s");
  cmd->add_option("--github-api", a->options.github_api,
                  "GitHub API base URL (default $GITHUB_API_URL, else https://api.github.com)");
  cmd->add_option("--github-repo", a->options.github_repo,
                  "OWNER/NAME (default $GITHUB_REPOSITORY)");
  cmd->add_option(
      "--sha", a->options.sha,
      "Commit for github-status (default $GITHUB_SHA; on pull requests pass the head SHA)");
  cmd->add_option("--pr", a->pr,
                  "Pull request for github-comment (default from $GITHUB_REF=refs/pull/N/merge)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--target-url", a->options.target_url,
                  "Link of the commit status (default: the run's CI URL)");
  cmd->add_option(
      "--token-file", a->options.token_files,
      "KIND=FILE with KIND pushgateway, webhook or github; else $FABRICGATE_PUSHGATEWAY_TOKEN, "
      "$FABRICGATE_WEBHOOK_TOKEN, $GITHUB_TOKEN. Tokens are never printed");
  cmd->add_option("--ca-bundle", a->ca_bundle,
                  "CA certificates (PEM) to verify TLS servers with; verification is always on")
      ->check(CLI::ExistingFile);
  cmd->add_option("--connect-timeout", a->connect_timeout_s, "Seconds to connect")
      ->check(CLI::Range(0.1, 600.0))
      ->capture_default_str();
  cmd->add_option("--timeout", a->timeout_s, "Seconds one request may take in all")
      ->check(CLI::Range(0.1, 3600.0))
      ->capture_default_str();
  cmd->add_option("--publish-timeout", a->publish_timeout_s,
                  "Seconds the whole publish step may take: every upload, retry and wait of "
                  "every target together (they run side by side); unfinished uploads fail (exit 3)")
      ->check(CLI::Range(1.0, 3600.0))
      ->capture_default_str();
  cmd->add_option("--attempts", a->attempts,
                  "Tries per upload on 5xx or connection errors (never on 4xx)")
      ->check(CLI::Range(1, 10))
      ->capture_default_str();
  cmd->add_option("--retry-delay", a->retry_delay_s,
                  "Seconds before the 2nd try; doubles after each")
      ->check(CLI::Range(0.0, 300.0))
      ->capture_default_str();
  cmd->add_flag("--verbose", a->verbose,
                "Print each request and attempt (credentials shown as ***)");
  cmd->callback([a, &exit_code] { exit_code = run_publish(*a); });
}

}  // namespace fabricgate::cli
