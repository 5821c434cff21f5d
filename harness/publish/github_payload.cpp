#include "harness/publish/github_payload.hpp"

#include <charconv>

namespace fabricgate::publish {

std::string github_status_context(const RunRecord& run) {
  std::string context =
      "fabricgate/" + run.platform + "/" + (run.suite.empty() ? "unknown" : run.suite);
  if (!run.scenario.empty() && run.scenario != "default") context += "/" + run.scenario;
  return context;
}

nlohmann::json github_status_body(const verdict::Comparison& comparison, const std::string& context,
                                  const std::string& target_url) {
  const char* state = comparison.exit_code == ExitCode::pass           ? "success"
                      : comparison.exit_code == ExitCode::gate_failure ? "failure"
                                                                       : "error";
  nlohmann::json body = {
      {"state", state},
      {"context", context},
      {"description", cut_utf8(comparison.headline(), kGithubStatusDescriptionMax)}};
  if (!target_url.empty()) body["target_url"] = target_url;
  return body;
}

nlohmann::json github_comment_body(const std::string& context, std::string_view markdown) {
  const std::string marker = "<!-- " + context + " -->\n";
  return {{"body", marker + cut_utf8(markdown, kGithubCommentMax - marker.size())}};
}

std::optional<long> pull_request_from_ref(std::string_view github_ref) {
  constexpr std::string_view prefix = "refs/pull/";
  if (github_ref.substr(0, prefix.size()) != prefix) return std::nullopt;
  const std::string_view rest = github_ref.substr(prefix.size());
  long number = 0;
  const auto r = std::from_chars(rest.data(), rest.data() + rest.size(), number);
  if (r.ec != std::errc() || number <= 0 || r.ptr == rest.data() ||
      (r.ptr != rest.data() + rest.size() && *r.ptr != '/')) {
    return std::nullopt;
  }
  return number;
}

std::string cut_utf8(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  constexpr std::string_view ellipsis = "…";  // 3 bytes
  if (max_bytes < ellipsis.size()) return {};
  std::size_t end = max_bytes - ellipsis.size();
  // Step back over continuation bytes (10xxxxxx) so no character is split.
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return std::string(text.substr(0, end)) + std::string(ellipsis);
}

}  // namespace fabricgate::publish
