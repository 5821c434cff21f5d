#include "harness/publish/http_client.hpp"

#include <curl/curl.h>

#include <memory>
#include <mutex>

#include "core/errors.hpp"

namespace fabricgate::publish {

namespace {

void global_init_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
      throw InfraError("libcurl could not be initialised");
  });
}

struct EasyDeleter {
  void operator()(CURL* h) const { curl_easy_cleanup(h); }
};
struct ListDeleter {
  void operator()(curl_slist* l) const { curl_slist_free_all(l); }
};
struct UrlDeleter {
  void operator()(CURLU* u) const { curl_url_cleanup(u); }
};

struct BodySink {
  std::string* body;
  std::size_t limit;
};

// Keeps the first `limit` bytes and accepts (drops) the rest, so a huge error page is no failure.
std::size_t collect_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto* sink = static_cast<BodySink*>(user);
  const std::size_t n = size * count;
  if (sink->body->size() < sink->limit)
    sink->body->append(data, std::min(n, sink->limit - sink->body->size()));
  return n;
}

// Failures that another attempt may not meet: the network, not the request, was the problem.
bool is_transient(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM: return true;
    default:
      return false;  // TLS verification, malformed URL, unsupported protocol: retrying cannot help
  }
}

void set(CURL* h, CURLoption option, auto value) {
  if (curl_easy_setopt(h, option, value) != CURLE_OK)
    throw InfraError("libcurl rejected an option");
}

}  // namespace

HttpClient::HttpClient(HttpClientOptions options) : options_(std::move(options)) {}

HttpResponse HttpClient::send(const HttpRequest& request,
                              std::optional<std::chrono::steady_clock::time_point> deadline) const {
  std::chrono::milliseconds connect_timeout = options_.connect_timeout;
  std::chrono::milliseconds total_timeout = options_.total_timeout;
  if (deadline) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        *deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      HttpResponse none;
      none.error = "not sent: the publish deadline had passed";
      return none;
    }
    connect_timeout = std::min(connect_timeout, left);
    total_timeout = std::min(total_timeout, left);
  }
  global_init_once();
  std::unique_ptr<CURL, EasyDeleter> handle(curl_easy_init());
  if (!handle) throw InfraError("libcurl could not create a handle");
  CURL* h = handle.get();
  HttpResponse response;
  BodySink sink{&response.body, options_.max_body_bytes};
  char error_buffer[CURL_ERROR_SIZE] = {};

  set(h, CURLOPT_URL, request.url.c_str());
#if LIBCURL_VERSION_NUM >= 0x075500  // 7.85: the string form replaces the deprecated bitmask
  set(h, CURLOPT_PROTOCOLS_STR, "http,https");
#else
  set(h, CURLOPT_PROTOCOLS, static_cast<long>(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
  set(h, CURLOPT_FOLLOWLOCATION, 0L);
  set(h, CURLOPT_NOSIGNAL, 1L);  // timeouts without SIGALRM
  set(h, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(connect_timeout.count()));
  set(h, CURLOPT_TIMEOUT_MS, static_cast<long>(total_timeout.count()));
  set(h, CURLOPT_USERAGENT, options_.user_agent.c_str());
  set(h, CURLOPT_ERRORBUFFER, error_buffer);
  set(h, CURLOPT_WRITEFUNCTION, &collect_body);
  set(h, CURLOPT_WRITEDATA, static_cast<void*>(&sink));
  // CURLOPT_SSL_VERIFYPEER / VERIFYHOST are deliberately left at their defaults (verify).
  if (!options_.ca_bundle.empty()) set(h, CURLOPT_CAINFO, options_.ca_bundle.c_str());

  if (request.method == "POST" || request.method == "PUT") {
    set(h, CURLOPT_POSTFIELDS, request.body.c_str());
    set(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
    if (request.method == "PUT") set(h, CURLOPT_CUSTOMREQUEST, "PUT");
  } else if (request.method != "GET") {
    throw InfraError("HttpClient: unsupported method " + request.method);
  }

  // No "Expect: 100-continue" round trip for bodies over 1 KiB.
  std::vector<std::string> lines{"Expect:"};
  for (const auto& [name, value] : request.headers) lines.push_back(name + ": " + value);
  std::unique_ptr<curl_slist, ListDeleter> headers;
  for (const std::string& line : lines) {
    curl_slist* head = curl_slist_append(headers.get(), line.c_str());
    if (head == nullptr) throw InfraError("libcurl could not allocate a header list");
    static_cast<void>(headers.release());
    headers.reset(head);
  }
  set(h, CURLOPT_HTTPHEADER, headers.get());

  const CURLcode code = curl_easy_perform(h);
  if (code != CURLE_OK) {
    response.transport_ok = false;
    response.transient = is_transient(code);
    response.error = error_buffer[0] != '\0' ? std::string(error_buffer) : curl_easy_strerror(code);
    return response;
  }
  response.transport_ok = true;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &response.status);
  return response;
}

std::string url_escape(std::string_view segment) {
  global_init_once();
  std::unique_ptr<CURL, EasyDeleter> handle(curl_easy_init());
  char* escaped = curl_easy_escape(handle.get(), segment.data(), static_cast<int>(segment.size()));
  if (escaped == nullptr) throw InfraError("libcurl could not escape a URL segment");
  std::string out(escaped);
  curl_free(escaped);
  return out;
}

std::string url_origin(std::string_view url, const std::string& what) {
  std::unique_ptr<CURLU, UrlDeleter> u(curl_url());
  const auto part = [&](CURLUPart which) -> std::string {
    char* value = nullptr;
    if (curl_url_get(u.get(), which, &value, 0) != CURLUE_OK || value == nullptr) return {};
    std::string out(value);
    curl_free(value);
    return out;
  };
  const std::string text(url);
  if (!u || curl_url_set(u.get(), CURLUPART_URL, text.c_str(), 0) != CURLUE_OK) {
    throw InputError(what + ": not a valid URL (expected http://HOST[:PORT]/... or https://...)");
  }
  const std::string scheme = part(CURLUPART_SCHEME);
  if (scheme != "http" && scheme != "https") {
    throw InputError(what + ": only http:// and https:// URLs are accepted");
  }
  const std::string port = part(CURLUPART_PORT);
  return scheme + "://" + part(CURLUPART_HOST) + (port.empty() ? "" : ":" + port);
}

}  // namespace fabricgate::publish
