#include "harness/publish/webhook_payload.hpp"

#include "core/text_escape.hpp"

namespace fabricgate::publish {

namespace {

std::string metadata(const RunRecord& run, const char* name) {
  const auto it = run.metadata.find(name);
  return it == run.metadata.end() ? "" : it->second;
}

std::string code(std::string_view s) { return report::slack_code(s); }

// A URL inside <...|label>: & is the only character Slack wants escaped there (< > | refused).
std::string slack_link_target(const std::string& url) {
  std::string out;
  for (const char c : url) out += c == '&' ? std::string("&amp;") : std::string(1, c);
  return out;
}

}  // namespace

const char* verdict_word(ExitCode code) {
  switch (code) {
    case ExitCode::pass: return "pass";
    case ExitCode::gate_failure: return "fail";
    case ExitCode::input_error: return "input-error";
    case ExitCode::infra_failure: return "infra-failure";
  }
  return "?";
}

std::string slack_escape(std::string_view text) { return report::slack_text(text); }

nlohmann::json webhook_body(const RunRecord& run, const verdict::Comparison& comparison,
                            std::size_t max_keys) {
  const std::string scenario = run.scenario.empty() ? "default" : run.scenario;
  const std::string host = run.ranks.empty() ? "" : run.ranks.front().host;
  const std::string run_url = metadata(run, "ci_run_url");

  std::string text = "*fabricgate " + slack_escape(comparison.headline()) + "*\n";
  text += "Run " + code(comparison.run_id) + " of suite " + code(run.suite) + " (" +
          slack_escape(scenario) + ") on " + code(comparison.platform) +
          (host.empty() ? "" : " host " + code(host)) + "\n";

  nlohmann::json failing = nlohmann::json::array();
  std::size_t listed = 0;
  std::size_t failing_count = 0;
  for (const verdict::KeyComparison& k : comparison.keys) {
    if (!verdict::verdict_fails_gate(k.verdict)) continue;
    ++failing_count;
    failing.push_back(
        {{"key", k.key}, {"verdict", verdict::verdict_name(k.verdict)}, {"reason", k.reason}});
    if (listed < max_keys) {
      text += "• *" + std::string(verdict::verdict_name(k.verdict)) + "* " + code(k.key) + ": " +
              slack_escape(k.reason) + "\n";
      ++listed;
    }
  }
  if (failing_count > listed)
    text += "… and " + std::to_string(failing_count - listed) + " more failing keys\n";
  if (!comparison.run_complete)
    text += "Incomplete run: " + slack_escape(comparison.incomplete_reason) + "\n";
  // The CI link is run data too: only an http(s) URL without the characters that end or split a
  // Slack link (<, >, |) or start a line becomes a link; anything else is shown as text.
  if (!run_url.empty()) {
    const bool linkable = (run_url.rfind("https://", 0) == 0 || run_url.rfind("http://", 0) == 0) &&
                          run_url.find_first_of("<>| \t\r\n") == std::string::npos;
    text += linkable ? "<" + slack_link_target(run_url) + "|CI run>\n"
                     : "CI run: " + slack_escape(run_url) + "\n";
  }

  nlohmann::json counts = nlohmann::json::object();
  for (const verdict::VerdictCount& c : comparison.counts())
    counts[verdict::verdict_name(c.verdict)] = c.count;
  return {{"text", text},
          {"fabricgate",
           {{"schema", kWebhookSchema},
            {"run_id", comparison.run_id},
            {"platform", comparison.platform},
            {"host", host},
            {"suite", run.suite},
            {"scenario", scenario},
            {"verdict", verdict_word(comparison.exit_code)},
            {"exit_code", static_cast<int>(comparison.exit_code)},
            {"headline", comparison.headline()},
            {"has_baseline", comparison.has_baseline},
            {"run_complete", comparison.run_complete},
            {"counts", counts},
            {"failing", failing},
            {"git_commit", metadata(run, "git_commit")},
            {"ci_run_url", run_url}}}};
}

}  // namespace fabricgate::publish
