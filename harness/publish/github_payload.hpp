#pragma once
// Bodies for the GitHub REST API: a commit status (POST /repos/{owner}/{repo}/statuses/{sha}) and
// a pull-request comment (POST /repos/{owner}/{repo}/issues/{n}/comments). Pure.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "harness/model/run_record.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::publish {

inline constexpr std::size_t kGithubStatusDescriptionMax = 140;  // GitHub rejects longer ones
inline constexpr std::size_t kGithubCommentMax = 65536;          // characters per comment body

// "fabricgate/<platform>/<suite>" plus "/<scenario>" for non-default scenarios: one status per
// measured configuration, so a control run does not overwrite the main one.
std::string github_status_context(const RunRecord& run);

// state: success (pass), failure (gate failure), error (input or infrastructure failure);
// description: the headline cut to 140 characters; target_url only when not empty.
nlohmann::json github_status_body(const verdict::Comparison& comparison, const std::string& context,
                                  const std::string& target_url);

// The Markdown report under a hidden marker naming the context, cut to GitHub's limit.
nlohmann::json github_comment_body(const std::string& context, std::string_view markdown);

// The pull-request number in a GITHUB_REF such as "refs/pull/42/merge"; nullopt otherwise.
std::optional<long> pull_request_from_ref(std::string_view github_ref);

// At most `max_bytes` bytes of `text`, cut at a UTF-8 character boundary, ending in "…" when cut.
std::string cut_utf8(std::string_view text, std::size_t max_bytes);

}  // namespace fabricgate::publish
