// Secrets never reach a recorded file: secret-looking names lose their value, URL credentials in
// any other value are replaced, and nothing else changes.
#include "harness/model/secret_redaction.hpp"

#include <gtest/gtest.h>

namespace fabricgate {
namespace {

TEST(model_secret_redaction, SecretNames) {
  for (const char* name :
       {"NCCL_FOO_TOKEN", "MY_SECRET_KEY", "db_password", "UCX_api_key", "OMPI_MCA_PASSWD",
        "SLURM_CREDENTIALS", "AWS_ACCESS_KEY_ID", "AWS_SESSION_TOKEN", "AWS_SECRET_ACCESS_KEY",
        "AWS_PROFILE", "aws_region"}) {
    EXPECT_TRUE(is_secret_variable(name)) << name;
  }
  for (const char* name :
       {"NCCL_IB_HCA", "FI_PROVIDER", "CUDA_VISIBLE_DEVICES", "PMIX_SERVER_URI", "XAWS_MODE"}) {
    EXPECT_FALSE(is_secret_variable(name)) << name;
  }
}

TEST(model_secret_redaction, UrlCredentialsAreReplaced) {
  EXPECT_EQ(redact_url_credentials("http://alice:s3cret@proxy:3128"),
            "http://<redacted>@proxy:3128");
  EXPECT_EQ(redact_url_credentials("https://ghp_abc@github.com/org/repo.git"),
            "https://<redacted>@github.com/org/repo.git");
  // Several URLs in one value (lists), each handled; the password may contain '@' and ':'.
  EXPECT_EQ(redact_url_credentials("tcp://u:p@h1:1,tcp://h2:2;s3://k:a@b:c@bucket/x"),
            "tcp://<redacted>@h1:1,tcp://h2:2;s3://<redacted>@bucket/x");
  // An '@' after the authority is not user information.
  EXPECT_EQ(redact_url_credentials("http://host/path@v2?x=a@b#c@d"),
            "http://host/path@v2?x=a@b#c@d");
  for (const char* same :
       {"", "mlx5_0:1,mlx5_1:1", "eth0", "://", "x://@host", "user@host", "a://b", "http://h:1/"}) {
    EXPECT_EQ(redact_url_credentials(same), same);
  }
}

TEST(model_secret_redaction, RecordableValuesAndEnvironments) {
  EXPECT_EQ(recordable_value("NCCL_API_TOKEN", "s3cret"), kRedacted);
  EXPECT_EQ(recordable_value("UCX_PROXY", "http://a:b@p:1"), "http://<redacted>@p:1");
  EXPECT_EQ(recordable_value("NCCL_ALGO", "Ring"), "Ring");
  const auto env = recordable_environment({{"NCCL_NVLS_ENABLE", "0"},
                                           {"AWS_SECRET_ACCESS_KEY", "abc"},
                                           {"FI_URL", "https://bob:hunter2@h/x"}});
  EXPECT_EQ(env.at("NCCL_NVLS_ENABLE"), "0");
  EXPECT_EQ(env.at("AWS_SECRET_ACCESS_KEY"), "<redacted>");
  EXPECT_EQ(env.at("FI_URL"), "https://<redacted>@h/x");
}

}  // namespace
}  // namespace fabricgate
