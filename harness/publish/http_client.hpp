#pragma once
// The one place fabricgate speaks HTTP: a thin libcurl wrapper that sends one request and reports
// what happened (a status and the start of the body, or the transport error). It never retries
// and never decides; the publisher does. TLS peer and host verification stay at libcurl's
// defaults (on); the only TLS setting is the CA bundle. Only http:// and https:// are allowed, and
// redirects are not followed (a POST must not be replayed to another host with its token).
// Built without libcurl (FABRICGATE_WITH_CURL=OFF), every function here throws InfraError.
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fabricgate::publish {

struct HttpRequest {
  std::string method = "POST";  // GET, POST or PUT
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;  // name, value
  std::string body;
};

struct HttpResponse {
  bool transport_ok = false;  // false: no HTTP status (refused, timed out, TLS failure, ...)
  bool transient = false;     // a transport failure worth retrying (refused, timeout, reset)
  long status = 0;            // HTTP status when transport_ok
  std::string body;           // at most HttpClientOptions::max_body_bytes of the response
  std::string error;          // libcurl's description when !transport_ok
};

struct HttpClientOptions {
  std::chrono::milliseconds connect_timeout{10'000};
  std::chrono::milliseconds total_timeout{30'000};  // per request, connect included
  std::string ca_bundle;                            // "" = the system's CA store
  std::size_t max_body_bytes = 64 * 1024;
  std::string user_agent = "fabricgate";
};

class HttpClient {
 public:
  explicit HttpClient(HttpClientOptions options);
  // Sends one request. Transport problems come back in the response, never as exceptions;
  // throws InfraError only when libcurl itself cannot be set up. With a `deadline`, the request's
  // timeouts are cut to what is left of it (none left: not sent, a non-transient failure).
  HttpResponse send(const HttpRequest& request,
                    std::optional<std::chrono::steady_clock::time_point> deadline = {}) const;

 private:
  HttpClientOptions options_;
};

// Percent-encodes one URL path segment (everything but RFC 3986 unreserved characters).
std::string url_escape(std::string_view segment);

// "scheme://host[:port]" of an http(s) URL, without user info, path or query: what may be shown
// of a URL whose path can be a secret (Slack webhook URLs are). Throws InputError naming `what`
// (never echoing the URL) when it is not an http:// or https:// URL.
std::string url_origin(std::string_view url, const std::string& what);

}  // namespace fabricgate::publish
