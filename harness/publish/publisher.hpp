#pragma once
// Delivering one upload: bounded attempts with exponential backoff on 5xx answers and transient
// transport failures, none on 4xx (the request itself is wrong; repeating it cannot help). Every
// text that leaves here (errors, verbose lines) has the upload's secrets replaced by "***".
#include <chrono>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "harness/publish/http_client.hpp"

namespace fabricgate::publish {

struct RetryPolicy {
  int attempts = 3;                             // total, first one included
  std::chrono::milliseconds first_delay{1000};  // before the 2nd attempt; doubles after each
  // The publish step's one deadline (--publish-timeout): no attempt starts or waits past it, and
  // each request's timeouts are cut to what is left. Unset: attempts and timeouts alone bound it.
  std::optional<std::chrono::steady_clock::time_point> deadline;
};

// The pause after `failed_attempts` failures (1 → first_delay, 2 → 2 × first_delay, ...).
std::chrono::milliseconds backoff_delay(const RetryPolicy& policy, int failed_attempts);

// 5xx, or a transport failure that libcurl reports as transient (refused, timed out, reset).
bool should_retry(const HttpResponse& response);

struct Upload {
  std::string target;  // shown in messages, e.g. "pushgateway http://gw:9091"; no secrets
  HttpRequest request;
  std::vector<std::string> secrets;  // tokens (and secret URLs) that must never be printed
};

struct UploadOutcome {
  bool ok = false;
  int attempts = 0;
  long status = 0;                // last HTTP status, 0 when none came back
  bool deadline_reached = false;  // stopped by RetryPolicy::deadline
  std::string message;  // redacted: "HTTP 201", or "<target>: HTTP 500 after 3 attempts; response:
                        // <excerpt>"
};

// `verbose` (may be null) gets one line per attempt and the request headers, redacted.
UploadOutcome deliver(const HttpClient& client, const Upload& upload, const RetryPolicy& policy,
                      std::ostream* verbose);

// `text` with every occurrence of each non-empty secret replaced by "***".
std::string redact(std::string text, const std::vector<std::string>& secrets);

// The first `max_chars` of a response body on one line (control characters as spaces), for errors.
std::string body_excerpt(const std::string& body, std::size_t max_chars = 300);

}  // namespace fabricgate::publish
