// Built when libcurl is absent (FABRICGATE_WITH_CURL=OFF): the payloads and the CLI still exist,
// and any attempt to upload says why it cannot (exit 3) instead of failing to link.
#include "core/errors.hpp"
#include "harness/publish/http_client.hpp"

namespace fabricgate::publish {

namespace {

[[noreturn]] void no_curl() {
  throw InfraError(
      "this fabricgate was built without libcurl (FABRICGATE_WITH_CURL=OFF), so it cannot upload; "
      "install libcurl4-openssl-dev and reconfigure");
}

}  // namespace

HttpClient::HttpClient(HttpClientOptions options) : options_(std::move(options)) {}
HttpResponse HttpClient::send(const HttpRequest&,
                              std::optional<std::chrono::steady_clock::time_point>) const {
  no_curl();
}
std::string url_escape(std::string_view) { no_curl(); }
std::string url_origin(std::string_view, const std::string&) { no_curl(); }

}  // namespace fabricgate::publish
