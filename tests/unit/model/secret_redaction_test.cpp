// Secrets never reach a recorded file: secret-looking names lose their value, URL credentials in
// any other value are replaced, and nothing else changes.
#include "harness/model/secret_redaction.hpp"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace fabricgate {
namespace {
namespace FABRICGATE_TEST_UNIT {  // unity builds: see tests/CMakeLists.txt

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

// Names that slipped past the first list: short secret words as whole words, passphrases, private
// keys, cookies; and names that merely contain those letters stay recordable.
TEST(model_secret_redaction, MoreSecretNames) {
  for (const char* name : {"DB_PASS", "smtp_pwd", "LDAP_PW", "GPG_PASSPHRASE",
                           "ssh_passphrase_file", "MY-PASS", "API_AUTH", "URL_SIG", "SSH_PRIVATE",
                           "SESSION_COOKIE", "REG_CREDS", "PASS", "AUTH.BASIC"}) {
    EXPECT_TRUE(is_secret_variable(name)) << name;
  }
  for (const char* name : {"PWD", "OLDPWD", "BYPASS_CACHE", "NCCL_PASSTHROUGH", "AUTHOR", "COMPASS",
                           "SIGNAL_MODE", "NCCL_IB_GID_INDEX"}) {
    EXPECT_FALSE(is_secret_variable(name)) << name;
  }
}

// Values of harmless names are recorded without what is a secret by its shape.
TEST(model_secret_redaction, TokenShapedValuesAreReplaced) {
  const std::string ghp = "ghp_" + std::string(36, 'a');
  const std::string pat = "github_pat_11ABCDEFG0" + std::string(40, 'b');
  const std::vector<std::pair<std::string, std::string>> cases = {
      {ghp, "<redacted>"},
      {"x=" + ghp, "x=<redacted>"},
      {pat, "<redacted>"},
      {"xoxb-1234-5678-abcdefgh", "<redacted>"},
      {"xoxp-99-88-zzzzzzzzzz", "<redacted>"},
      {"glpat-ABCDEFGHIJKLMNOPQRST", "<redacted>"},
      {"AKIAABCDEFGHIJKLMNOP", "<redacted>"},
      {"https://h.example/x?token=abc123&y=1", "https://h.example/x?token=<redacted>&y=1"},
      {"https://h.example/blob?sv=1&sig=Zm9vYmFy%3D&se=2",
       "https://h.example/blob?sv=1&sig=<redacted>&se=2"},
      {"https://h/cb?access_token=t0k&code=c0de",
       "https://h/cb?access_token=<redacted>&code=<redacted>"},
      {"Bearer abcdef123456", "Bearer <redacted>"},
      {"Authorization: basic dXNlcjpwYXNz", "Authorization: basic <redacted>"},
      {"a eyJhbGciOiJI.eyJzdWIiOiIx.SflKxwRJSMeKKF b", "a <redacted> b"},
  };
  for (const auto& [value, recorded] : cases) {
    EXPECT_EQ(recordable_value("NCCL_DEBUG_SUBSYS", value), recorded) << value;
    EXPECT_EQ(redact_secret_shapes(value), recorded) << value;
  }
  for (const char* same :
       {"Ring", "mlx5_0:1,mlx5_1:1", "https://h.example/x?y=1&page=2", "ghp_short",
        "disk-abcdefghijklmnopqrstuvwxyz", "Tokens are fine", "eth0", "/usr/lib/libnccl-net.so"}) {
    EXPECT_EQ(recordable_value("NCCL_X", same), same) << same;
  }
}

// The redaction is linear: a value of a megabyte in each shape's alphabet, or a run of near
// misses, is redacted in one pass. std::regex recursed per character and overflowed the default
// 8 MiB stack (ulimit -s, as ctest runs this) at about 30 kB (issue 41/52, high 1).
TEST(model_secret_redaction, MegabyteValuesAreRedactedWithoutRecursion) {
  const std::size_t mb = 1 << 20;
  EXPECT_EQ(redact_secret_shapes("ghp_" + std::string(mb, 'a')), "<redacted>");
  EXPECT_EQ(redact_secret_shapes("x Bearer " + std::string(mb, '=')), "x Bearer <redacted>");
  EXPECT_EQ(redact_secret_shapes("?password=" + std::string(mb, 'p')), "?password=<redacted>");
  EXPECT_EQ(redact_secret_shapes("eyJ" + std::string(mb, 'a') + ".bbbbbbbb.cccccccc"),
            "<redacted>");
  const std::string plain(mb, 'z');
  EXPECT_EQ(redact_secret_shapes(plain), plain);
  std::string near;  // "ghp_" + 15 letters, "Bearer x", "a=b&": nothing to redact, many starts
  while (near.size() < mb) near += "ghp_aaaaaaaaaaaaaaa Bearer x a=b&;";
  EXPECT_EQ(redact_secret_shapes(near), near);
  EXPECT_EQ(recordable_value("CUDA_VISIBLE_DEVICES", std::string(60000, '0')),
            std::string(60000, '0'));
}

// Where a shape may start and end: a word character before a token hides it, one match ends
// where the next may begin, a key=value list is judged item by item.
TEST(model_secret_redaction, ShapeBoundariesAreTheOnesThePatternsDescribe) {
  const std::string ghp = "ghp_" + std::string(16, 'a');
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"x" + ghp, "x" + ghp},                        // a word before: no boundary
      {"-" + ghp, "-<redacted>"},                    // a dash is one
      {ghp + " " + ghp, "<redacted> <redacted>"},    // back to back
      {ghp + "_tail", "<redacted>_tail"},            // the run stops at '_'
      {"AKIAABCDEFGHIJKLMNOPQRS", "<redacted>QRS"},  // exactly 16 after AKIA
      {"eyJaaaaaaaa.bbbbbbbb.ccccccc", "eyJaaaaaaaa.bbbbbbbb.ccccccc"},  // third part too short
      {"BEARER\t\tabcdef", "BEARER\t\t<redacted>"},                      // any case, any blanks
      {"Bearer abcde", "Bearer abcde"},                                  // five is not a credential
      {"a=1&token=t&b=2", "a=1&token=<redacted>&b=2"},
      {"token=t", "token=<redacted>"},  // at the start
      {"x;pass=p", "x;pass=<redacted>"},
      {"?=v&pass=", "?=v&pass="},  // no name, no value
      // a command line inside a value (an MPI agent): options after a blank, with their dashes
      {"ssh -l ci --password=hunter2 -p 22", "ssh -l ci --password=<redacted> -p 22"},
      {"agent -token=abc --verbose=1", "agent -token=<redacted> --verbose=1"},
      {"--pass=x", "--pass=<redacted>"},
      {"ssh --mode=fast", "ssh --mode=fast"},
  };
  for (const auto& [value, recorded] : cases)
    EXPECT_EQ(redact_secret_shapes(value), recorded) << value;
}

// nccl.conf is copied into the fingerprint: each line as an assignment of a name, comments kept.
TEST(model_secret_redaction, ConfigTextIsRecordedLineByLine) {
  EXPECT_EQ(
      recordable_config_text("# site settings\nNCCL_IB_HCA=mlx5_0\nNCCL_PLUGIN_PASSWORD=hunter2\n"
                             "  DB_PASS = hunter2\nNCCL_NET_URL=https://u:hunter2@h/x\n"
                             "NCCL_TOKEN_URL=x?token=hunter2\nstray ghp_" +
                             std::string(36, 'c') + "\n"),
      "# site settings\nNCCL_IB_HCA=mlx5_0\nNCCL_PLUGIN_PASSWORD=<redacted>\n"
      "  DB_PASS =<redacted>\nNCCL_NET_URL=https://<redacted>@h/x\n"
      "NCCL_TOKEN_URL=<redacted>\nstray <redacted>\n");
  EXPECT_EQ(recordable_config_text("NCCL_ALGO=Ring"), "NCCL_ALGO=Ring");
}

}  // namespace FABRICGATE_TEST_UNIT
}  // namespace
}  // namespace fabricgate
