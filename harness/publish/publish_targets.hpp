#pragma once
// Where a run is published (`fabricgate publish --to ...`) and the requests each target gets.
// Tokens come only from the environment or from --token-file, are sent only to the target they
// belong to, and are listed as secrets of the upload so nothing printed ever contains them.
//
//   pushgateway=URL   PUT URL/metrics/job/fabricgate/platform/P/host/H/suite/S/scenario/C
//                     token: FABRICGATE_PUSHGATEWAY_TOKEN (Bearer), optional
//   webhook[=URL]     POST the JSON of webhook_payload.hpp; URL default FABRICGATE_WEBHOOK_URL
//                     (a secret: Slack URLs are); token: FABRICGATE_WEBHOOK_TOKEN, optional
//   github-status     POST {api}/repos/{repo}/statuses/{sha}; token: GITHUB_TOKEN, required
//   github-comment    POST {api}/repos/{repo}/issues/{pr}/comments; token: GITHUB_TOKEN, required
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/model/run_record.hpp"
#include "harness/publish/publisher.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::publish {

enum class TargetKind { pushgateway, webhook, github_status, github_comment };

struct TargetSpec {
  TargetKind kind = TargetKind::pushgateway;
  std::string url;  // pushgateway / webhook; "" for webhook means FABRICGATE_WEBHOOK_URL
};

// Parses one --to value; InputError names the value and the accepted forms.
TargetSpec parse_target(std::string_view spec);

// What the command line gave; anything empty is looked up in the environment.
struct PublishOptions {
  std::string github_api;                // else GITHUB_API_URL, else https://api.github.com
  std::string github_repo;               // else GITHUB_REPOSITORY (owner/name)
  std::string sha;                       // else GITHUB_SHA
  std::optional<long> pr;                // else from GITHUB_REF=refs/pull/N/merge
  std::string target_url;                // status link; else the run's CI URL
  std::vector<std::string> token_files;  // "pushgateway=FILE", "webhook=FILE", "github=FILE"
};

// Everything resolved and checked, before any upload starts.
struct PublishSettings {
  std::string github_api;
  std::string github_repo;
  std::string sha;
  std::optional<long> pr;
  std::string target_url;
  std::map<std::string, std::string> tokens;  // "pushgateway" | "webhook" | "github" → token
  std::string webhook_url;                    // the URL of `--to webhook` without "=URL"
};

using EnvLookup = std::function<std::optional<std::string>(const char* name)>;
EnvLookup process_environment();  // std::getenv; unset and empty are both nullopt

// Throws InputError when a target lacks what it needs (token, repository, commit, PR number) or a
// token file is unreadable, empty or not a single line of printable characters.
PublishSettings resolve_settings(const PublishOptions& options,
                                 const std::vector<TargetSpec>& targets, const EnvLookup& env);

// The upload(s) one target gets for one run (one each today).
std::vector<Upload> uploads_for(const TargetSpec& target, const RunRecord& run,
                                const verdict::Comparison& comparison,
                                const PublishSettings& settings);

}  // namespace fabricgate::publish
