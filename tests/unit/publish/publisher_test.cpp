// Retry decisions, backoff and redaction: pure parts of delivering an upload. Delivery against
// real servers (retries, timeouts, TLS) is in tests/integration/publish.
#include "harness/publish/publisher.hpp"

#include <gtest/gtest.h>

namespace fabricgate::publish {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

HttpResponse answered(long status) {
  HttpResponse r;
  r.transport_ok = true;
  r.status = status;
  return r;
}

HttpResponse transport_failure(bool transient) {
  HttpResponse r;
  r.transient = transient;
  r.error = "boom";
  return r;
}

TEST(publish_Retry, FiveHundredsAndTransientFailuresAreRetriedFourHundredsNot) {
  EXPECT_TRUE(should_retry(answered(500)));
  EXPECT_TRUE(should_retry(answered(503)));
  EXPECT_TRUE(should_retry(answered(599)));
  EXPECT_FALSE(should_retry(answered(400)));
  EXPECT_FALSE(should_retry(answered(401)));
  EXPECT_FALSE(should_retry(answered(404)));
  EXPECT_FALSE(should_retry(answered(422)));
  EXPECT_FALSE(should_retry(answered(429)));
  EXPECT_FALSE(should_retry(answered(200)));
  EXPECT_TRUE(should_retry(transport_failure(true)));    // refused, timed out
  EXPECT_FALSE(should_retry(transport_failure(false)));  // TLS verification, bad URL
}

TEST(publish_Retry, BackoffDoublesFromTheFirstDelay) {
  const RetryPolicy p{4, std::chrono::milliseconds(250), {}};
  EXPECT_EQ(backoff_delay(p, 1).count(), 250);
  EXPECT_EQ(backoff_delay(p, 2).count(), 500);
  EXPECT_EQ(backoff_delay(p, 3).count(), 1000);
  EXPECT_EQ(backoff_delay(RetryPolicy{}, 1).count(), 1000);
}

TEST(publish_Redact, EverySecretOccurrenceIsHidden) {
  EXPECT_EQ(redact("Bearer tok123 and tok123", {"tok123"}), "Bearer *** and ***");
  EXPECT_EQ(redact("nothing here", {"tok123", ""}), "nothing here");
  EXPECT_EQ(redact("https://hooks.example/T0/B0/xyz failed", {"https://hooks.example/T0/B0/xyz"}),
            "*** failed");
  // A secret that contains the replacement is still removed, not looped on.
  EXPECT_EQ(redact("a***b", {"***"}), "a***b");
}

// A server's answer may echo credentials the upload never listed: a Basic header built from URL
// user information, a token in a query, a token-shaped string. They go by their shape.
TEST(publish_Redact, SecretShapesInAServersAnswerAreHidden) {
  const std::string ghp = "ghp_" + std::string(36, 'A');
  for (const std::string& echoed : std::vector<std::string>{
           std::string("Authorization: Basic YWxpY2U6aHVudGVyMg=="),
           std::string("GET /x?token=hunter2xyz HTTP/1.1"),
           std::string("see https://alice:hunter2@gw:9091/metrics"),
           "your token " + ghp + " is revoked",
           std::string("Authorization: Bearer eyJhbGciOi.eyJzdWIiOi.c2lnbmF0dXJl"),
           std::string("/api?a=1&sig=hunter2xyz&b=2")}) {
    const std::string shown = redact(echoed, {});
    EXPECT_EQ(shown.find("hunter2"), std::string::npos) << shown;
    EXPECT_EQ(shown.find("YWxpY2U6aHVudGVyMg"), std::string::npos) << shown;
    EXPECT_EQ(shown.find(ghp), std::string::npos) << shown;
    EXPECT_EQ(shown.find("eyJzdWIiOi"), std::string::npos) << shown;
    EXPECT_NE(shown.find("<redacted>"), std::string::npos) << shown;
  }
}

TEST(publish_Redact, BodyExcerptIsOneBoundedLine) {
  EXPECT_EQ(body_excerpt("line1\nline2\r\tend"), "line1 line2  end");
  const std::string long_body(1000, 'x');
  const std::string e = body_excerpt(long_body, 300);
  EXPECT_EQ(e, std::string(300, 'x') + "…");
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate::publish
