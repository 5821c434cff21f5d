#include "harness/publish/publish_targets.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/errors.hpp"
#include "harness/publish/github_payload.hpp"
#include "harness/publish/http_client.hpp"
#include "harness/publish/pushgateway_payload.hpp"
#include "harness/publish/webhook_payload.hpp"
#include "harness/report/render.hpp"

namespace fabricgate::publish {

namespace {

constexpr const char* kAccepted = "pushgateway=URL, webhook[=URL], github-status or github-comment";

// Invalid UTF-8 in a run's strings becomes U+FFFD instead of failing the upload.
std::string dump(const nlohmann::json& doc) {
  return doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string without_trailing_slash(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

bool is_printable_token(const std::string& token) {
  if (token.empty()) return false;
  for (const char c : token) {
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) return false;  // no header injection
  }
  return true;
}

// `option` names where the path came from; a path that cannot be read is never shown: a user who
// gives the token itself instead of a file must not see it echoed into a CI log.
std::string read_token_file(const std::string& path, const std::string& option) {
  std::ifstream in(path, std::ios::binary);
  if (!in || std::filesystem::is_directory(path)) {
    throw InputError(option, "",
                     "a readable file holding the token (the argument is not shown: it may be the "
                     "token itself)");
  }
  std::ostringstream text;
  text << in.rdbuf();
  std::string token = text.str();
  while (!token.empty() && (token.back() == '\n' || token.back() == '\r')) token.pop_back();
  if (!is_printable_token(token)) {
    throw InputError(path, "",
                     "expected one line holding the token (no spaces or control characters)");
  }
  return token;
}

bool valid_repo(const std::string& repo) {
  const std::size_t slash = repo.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == repo.size()) return false;
  for (std::size_t i = 0; i < repo.size(); ++i) {
    const char c = repo[i];
    if (i == slash) continue;
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.')
      return false;
  }
  return true;
}

bool valid_sha(const std::string& sha) {
  if (sha.size() != 40 && sha.size() != 64) return false;
  for (const char c : sha) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

std::string first(const std::string& option, const EnvLookup& env, const char* variable) {
  if (!option.empty()) return option;
  return env(variable).value_or("");
}

// What of a target URL a server may echo back and must not be printed: the user information
// (user:password, and each part) and, where the path is the credential (a webhook), the path and
// query on their own.
void add_url_secrets(Upload& u, const std::string& url, bool path_is_secret) {
  const std::size_t scheme = url.find("://");
  if (scheme == std::string::npos) return;
  const std::size_t authority = scheme + 3;
  const std::size_t end = std::min(url.find_first_of("/?#", authority), url.size());
  const std::size_t at = url.rfind('@', end == 0 ? 0 : end - 1);
  if (at != std::string::npos && at >= authority) {
    const std::string userinfo = url.substr(authority, at - authority);
    u.secrets.push_back(userinfo);
    const std::size_t colon = userinfo.find(':');
    if (colon != std::string::npos && colon + 1 < userinfo.size())
      u.secrets.push_back(userinfo.substr(colon + 1));
  }
  if (path_is_secret && end < url.size() && url.size() - end > 1)
    u.secrets.push_back(url.substr(end));
}

void add_bearer(Upload& u, const PublishSettings& s, const char* token_kind) {
  const auto it = s.tokens.find(token_kind);
  if (it == s.tokens.end()) return;
  u.request.headers.emplace_back("Authorization", "Bearer " + it->second);
  u.secrets.push_back(it->second);
}

Upload github_upload(const std::string& target, const std::string& path, const nlohmann::json& body,
                     const PublishSettings& s) {
  Upload u;
  u.target = target;
  u.request.method = "POST";
  u.request.url = s.github_api + path;
  u.request.headers = {{"Accept", "application/vnd.github+json"},
                       {"X-GitHub-Api-Version", "2022-11-28"},
                       {"Content-Type", "application/json"}};
  u.request.body = dump(body);
  add_bearer(u, s, "github");
  return u;
}

std::string repo_path(const PublishSettings& s) {
  const std::size_t slash = s.github_repo.find('/');
  return "/repos/" + url_escape(s.github_repo.substr(0, slash)) + "/" +
         url_escape(s.github_repo.substr(slash + 1));
}

}  // namespace

TargetSpec parse_target(std::string_view spec) {
  const std::size_t eq = spec.find('=');
  const std::string_view kind = spec.substr(0, eq);
  const std::string value = eq == std::string_view::npos ? "" : std::string(spec.substr(eq + 1));
  TargetSpec t;
  if (kind == "pushgateway") {
    if (value.empty())
      throw InputError("--to pushgateway needs a URL: --to pushgateway=http://HOST:9091");
    t.kind = TargetKind::pushgateway;
  } else if (kind == "webhook") {
    t.kind = TargetKind::webhook;
  } else if (kind == "github-status" || kind == "github-comment") {
    if (eq != std::string_view::npos)
      throw InputError("--to " + std::string(kind) + " takes no value (see --github-api)");
    t.kind = kind == "github-status" ? TargetKind::github_status : TargetKind::github_comment;
  } else {
    throw InputError("--to " + std::string(kind) + ": unknown target; expected " + kAccepted);
  }
  t.url = without_trailing_slash(value);
  if (!t.url.empty())
    url_origin(t.url, "--to " + std::string(kind));  // http(s) only; the URL is not echoed
  return t;
}

EnvLookup process_environment() {
  return [](const char* name) -> std::optional<std::string> {
    const char* v = std::getenv(name);
    if (v == nullptr || *v == '\0') return std::nullopt;
    return std::string(v);
  };
}

PublishSettings resolve_settings(const PublishOptions& o, const std::vector<TargetSpec>& targets,
                                 const EnvLookup& env) {
  PublishSettings s;
  bool wants[4] = {};
  for (const TargetSpec& t : targets) wants[static_cast<int>(t.kind)] = true;
  const bool wants_github = wants[static_cast<int>(TargetKind::github_status)] ||
                            wants[static_cast<int>(TargetKind::github_comment)];

  // Tokens: --token-file KIND=FILE wins over the environment variable.
  const std::map<std::string, const char*> variables = {
      {"pushgateway", "FABRICGATE_PUSHGATEWAY_TOKEN"},
      {"webhook", "FABRICGATE_WEBHOOK_TOKEN"},
      {"github", "GITHUB_TOKEN"}};
  for (const auto& [kind, variable] : variables) {
    if (const auto v = env(variable)) {
      if (!is_printable_token(*v)) {
        throw InputError(std::string("$") + variable +
                         " is not a single-line token (spaces or control characters)");
      }
      s.tokens[kind] = *v;
    }
  }
  for (const std::string& item : o.token_files) {
    const std::size_t eq = item.find('=');
    const std::string kind = item.substr(0, eq);
    if (eq == std::string::npos || variables.count(kind) == 0 || eq + 1 == item.size()) {
      throw InputError("--token-file " +
                       (variables.count(kind) ? kind + "=..." : std::string("...")) +
                       ": expected pushgateway=FILE, webhook=FILE or github=FILE");
    }
    s.tokens[kind] = read_token_file(item.substr(eq + 1), "--token-file " + kind + "=FILE");
  }

  for (const TargetSpec& t : targets) {
    if (t.kind == TargetKind::webhook && t.url.empty()) {
      s.webhook_url = without_trailing_slash(env("FABRICGATE_WEBHOOK_URL").value_or(""));
      if (s.webhook_url.empty()) {
        throw InputError("--to webhook needs a URL: --to webhook=URL or $FABRICGATE_WEBHOOK_URL");
      }
      url_origin(s.webhook_url, "$FABRICGATE_WEBHOOK_URL");
    }
  }
  if (!wants_github) return s;

  s.github_api = without_trailing_slash(first(o.github_api, env, "GITHUB_API_URL"));
  if (s.github_api.empty()) s.github_api = "https://api.github.com";
  url_origin(s.github_api, "--github-api / $GITHUB_API_URL");
  s.github_repo = first(o.github_repo, env, "GITHUB_REPOSITORY");
  if (!valid_repo(s.github_repo)) {
    throw InputError(
        "GitHub targets need the repository as OWNER/NAME: --github-repo or $GITHUB_REPOSITORY "
        "(got \"" +
        s.github_repo + "\")");
  }
  if (s.tokens.count("github") == 0) {
    throw InputError("GitHub targets need a token: $GITHUB_TOKEN or --token-file github=FILE");
  }
  s.target_url = o.target_url;
  if (wants[static_cast<int>(TargetKind::github_status)]) {
    s.sha = first(o.sha, env, "GITHUB_SHA");
    if (!valid_sha(s.sha)) {
      throw InputError(
          "--to github-status needs the full commit SHA (40 hex digits): --sha or $GITHUB_SHA (got "
          "\"" +
          s.sha + "\")");
    }
  }
  if (wants[static_cast<int>(TargetKind::github_comment)]) {
    s.pr = o.pr ? o.pr : pull_request_from_ref(env("GITHUB_REF").value_or(""));
    if (!s.pr || *s.pr <= 0) {
      throw InputError(
          "--to github-comment needs a pull request: --pr N, or $GITHUB_REF=refs/pull/N/merge "
          "(set on pull_request events)");
    }
  }
  return s;
}

std::vector<Upload> uploads_for(const TargetSpec& t, const RunRecord& run,
                                const verdict::Comparison& comparison, const PublishSettings& s) {
  switch (t.kind) {
    case TargetKind::pushgateway: {
      Upload u;
      u.target = "pushgateway " + url_origin(t.url, "--to pushgateway");
      std::string path = "/metrics/job/fabricgate";
      for (const auto& [name, value] : pushgateway_grouping(run)) {
        // The Pushgateway splits the path before decoding it, so even %2F would break the key.
        if (value.find('/') != std::string::npos) {
          throw InputError(run.source, "",
                           "the Pushgateway grouping label " + name + "=\"" + value +
                               "\" contains '/', which a grouping key cannot hold");
        }
        path += "/" + name + "/" + url_escape(value);
      }
      // PUT replaces the whole group, so keys that left the suite do not linger as stale series.
      u.request.method = "PUT";
      u.request.url = t.url + path;
      add_url_secrets(u, t.url, false);
      u.request.headers = {{"Content-Type", "text/plain; version=0.0.4; charset=utf-8"}};
      u.request.body = pushgateway_exposition(run, comparison);
      add_bearer(u, s, "pushgateway");
      return {u};
    }
    case TargetKind::webhook: {
      Upload u;
      const std::string url = t.url.empty() ? s.webhook_url : t.url;
      u.target = "webhook " + url_origin(url, "--to webhook");
      u.request.method = "POST";
      u.request.url = url;
      u.request.headers = {{"Content-Type", "application/json"}};
      u.request.body = dump(webhook_body(run, comparison));
      u.secrets.push_back(url);  // a webhook URL's path is its credential
      add_url_secrets(u, url, true);
      add_bearer(u, s, "webhook");
      return {u};
    }
    case TargetKind::github_status: {
      const std::string context = github_status_context(run);
      const auto ci_url = run.metadata.find("ci_run_url");
      const std::string link = !s.target_url.empty()          ? s.target_url
                               : ci_url != run.metadata.end() ? ci_url->second
                                                              : "";
      return {github_upload("github-status " + s.github_repo + "@" + s.sha.substr(0, 12),
                            repo_path(s) + "/statuses/" + s.sha,
                            github_status_body(comparison, context, link), s)};
    }
    case TargetKind::github_comment: {
      report::RenderOptions options;
      options.max_markdown_bytes = kGithubCommentMax - 1024;  // room for the marker
      const std::string markdown =
          report::render(comparison, report::ReportFormat::markdown, options);
      return {github_upload("github-comment " + s.github_repo + "#" + std::to_string(*s.pr),
                            repo_path(s) + "/issues/" + std::to_string(*s.pr) + "/comments",
                            github_comment_body(github_status_context(run), markdown), s)};
    }
  }
  return {};
}

}  // namespace fabricgate::publish
