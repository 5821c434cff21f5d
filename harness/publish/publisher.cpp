#include "harness/publish/publisher.hpp"

#include <algorithm>
#include <thread>

#include "harness/model/secret_redaction.hpp"

namespace fabricgate::publish {

std::chrono::milliseconds backoff_delay(const RetryPolicy& policy, int failed_attempts) {
  std::chrono::milliseconds delay = policy.first_delay;
  for (int i = 1; i < failed_attempts; ++i) delay *= 2;
  return delay;
}

bool should_retry(const HttpResponse& response) {
  if (!response.transport_ok) return response.transient;
  return response.status >= 500 && response.status <= 599;
}

std::string redact(std::string text, const std::vector<std::string>& secrets) {
  // Longest first: a webhook's whole URL before its path, user:password before the password.
  std::vector<std::string> longest_first = secrets;
  std::sort(longest_first.begin(), longest_first.end(),
            [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  for (const std::string& secret : longest_first) {
    if (secret.empty()) continue;
    for (std::size_t at = text.find(secret); at != std::string::npos;
         at = text.find(secret, at + 3)) {
      text.replace(at, secret.size(), "***");
    }
  }
  // And what is a secret by its shape (a token, Basic/Bearer credentials, ?token=, user:pw@):
  // a server may echo credentials this upload never knew about.
  return redact_secret_shapes(text);
}

std::string body_excerpt(const std::string& body, std::size_t max_chars) {
  std::string out = body.substr(0, max_chars);
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  }
  if (body.size() > max_chars) out += "…";
  return out;
}

namespace {

std::string status_text(const HttpResponse& r) {
  return r.transport_ok ? "HTTP " + std::to_string(r.status) : r.error;
}

// The body is redacted before it is cut, so that no part of a secret the server echoed survives.
std::string body_text(const HttpResponse& r, const std::vector<std::string>& secrets) {
  if (!r.transport_ok || r.body.empty() || (r.status >= 200 && r.status <= 299)) return {};
  return "; response: " + body_excerpt(redact(r.body, secrets));
}

}  // namespace

UploadOutcome deliver(const HttpClient& client, const Upload& upload, const RetryPolicy& policy,
                      std::ostream* verbose) {
  const auto say = [&](const std::string& line) {
    if (verbose != nullptr)
      *verbose << redact(redact_url_credentials(line), upload.secrets) << "\n" << std::flush;
  };
  say("fabricgate: " + upload.target + ": " + upload.request.method + " " + upload.request.url);
  for (const auto& [name, value] : upload.request.headers) {
    // Credentials are hidden whole, not only where they match a known secret.
    const bool credential = name == "Authorization" || name == "Proxy-Authorization";
    say("  " + name + ": " + (credential ? std::string("***") : value));
  }
  UploadOutcome outcome;
  const int attempts = std::max(1, policy.attempts);
  HttpResponse last;
  for (int attempt = 1; attempt <= attempts; ++attempt) {
    outcome.attempts = attempt;
    last = client.send(upload.request, policy.deadline);
    outcome.status = last.transport_ok ? last.status : 0;
    say("fabricgate: " + upload.target + ": attempt " + std::to_string(attempt) + "/" +
        std::to_string(attempts) + ": " + status_text(last) + body_text(last, upload.secrets));
    if (last.transport_ok && last.status >= 200 && last.status <= 299) {
      outcome.ok = true;
      outcome.message = "HTTP " + std::to_string(last.status);
      return outcome;
    }
    if (!should_retry(last) || attempt == attempts) break;
    if (policy.deadline &&
        std::chrono::steady_clock::now() + backoff_delay(policy, attempt) >= *policy.deadline) {
      outcome.deadline_reached = true;
      break;
    }
    std::this_thread::sleep_for(backoff_delay(policy, attempt));
  }
  const std::string tries =
      outcome.attempts == 1 ? "1 attempt" : std::to_string(outcome.attempts) + " attempts";
  if (policy.deadline && std::chrono::steady_clock::now() >= *policy.deadline)
    outcome.deadline_reached = true;
  const std::string why = outcome.deadline_reached ? " (the publish deadline was reached)"
                          : should_retry(last)     ? ""
                                                   : " (not retried)";
  outcome.message = redact(upload.target + ": " + status_text(last) + " after " + tries + why +
                               body_text(last, upload.secrets),
                           upload.secrets);
  return outcome;
}

}  // namespace fabricgate::publish
