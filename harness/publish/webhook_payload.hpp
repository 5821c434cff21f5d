#pragma once
// The JSON a generic webhook receives. Slack-compatible: "text" holds the verdict headline, where
// it ran and the top failing keys in Slack's mrkdwn; "fabricgate" holds the same facts as data
// (schema fabricgate.webhook/1) for receivers that parse rather than display. Pure.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "harness/model/run_record.hpp"
#include "harness/verdict/comparison.hpp"

namespace fabricgate::publish {

inline constexpr const char* kWebhookSchema = "fabricgate.webhook/1";

// "pass", "fail", "input-error" or "infra-failure" for an exit code.
const char* verdict_word(ExitCode code);

// `max_keys` failing keys are listed in the text (most urgent first); the rest are counted.
nlohmann::json webhook_body(const RunRecord& run, const verdict::Comparison& comparison,
                            std::size_t max_keys = 5);

// Slack mrkdwn text from run data: report::slack_text (core/text_escape.hpp), the one rule.
std::string slack_escape(std::string_view text);

}  // namespace fabricgate::publish
